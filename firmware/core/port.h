/* port.h - the small surface a benchmark core needs from its platform.
 *
 * The core (firmware/core) is C99 and includes only this header and the
 * standard headers. A port implements it: firmware/port/posix for Linux and
 * other POSIX hosts; an RTOS port (NDK sockets, a cycle counter) would
 * implement the same functions.
 */
#ifndef GOODPUT_PORT_H
#define GOODPUT_PORT_H

#include <stddef.h>
#include <stdint.h>

/* Monotonic wall time in nanoseconds. */
uint64_t port_now_ns(void);

/* CPU time (user + system) this process has used, in nanoseconds. */
uint64_t port_cpu_ns(void);

/* Whole-machine CPU ticks since boot: busy and total. Returns 0, or -1 where the
 * platform cannot tell (the caller then reports no machine load). */
int port_machine_ticks(uint64_t *busy, uint64_t *total);

/* Write one line of output (without its newline) and flush it: 0, or BENCH_ERR_OUTPUT
 * when it could not be written (a full disk, a closed stream). */
int port_write_line(const char *line);

/* Sleep for about ns nanoseconds. */
void port_sleep_ns(uint64_t ns);

/* Sockets. Functions that return int return a handle >= 0 or a negative
 * enum bench_status value (see bench.h). Timeouts are in milliseconds. */
int port_listen(const char *address, unsigned port);
/* Wait up to timeout_ms (0: do not wait) for a connection on any of the listeners and accept
 * it: *which is the listener's index, and peer (peer_bytes long, at least 1) receives the peer's
 * address as text ("192.0.2.7:40312"), so that a bad peer can be named in the log. */
int port_accept_any(const int *listeners, size_t count, unsigned timeout_ms, size_t *which, char *peer,
                    size_t peer_bytes);
int port_connect(const char *address, unsigned port, unsigned timeout_ms);
/* Wait up to timeout_ms until any of count handles (listeners and connections alike, at most
 * PORT_WAIT_MAX) is ready: a listener with a connection to accept, a connection with bytes to
 * read or whose peer closed or failed, so that port_accept_any or port_recv with a timeout of 0
 * then answers at once. ready[i] is set to 1 for each ready handle and 0 for the others. Returns
 * how many are ready, BENCH_ERR_TIMEOUT when none became so, or another negative status. A
 * testee waits this way on its listeners and on every connection whose header has not come yet,
 * so that a peer that falls silent holds up nobody else. */
#define PORT_WAIT_MAX 32u
int port_wait_any(const int *handles, size_t count, unsigned timeout_ms, unsigned char *ready);
/* Send all n bytes: 0 or a negative status. */
int port_send_all(int handle, const void *buf, size_t n, unsigned timeout_ms);
/* Receive up to n bytes: the count (0 when the peer closed) or a negative status. */
long port_recv(int handle, void *buf, size_t n, unsigned timeout_ms);
void port_close(int handle);

#endif
