/* port.c - the POSIX port: clocks, CPU time, /proc/stat, sockets, stdout. */
#define _POSIX_C_SOURCE 200809L
#include "../../core/port.h"
#include "../../core/bench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

uint64_t port_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t port_cpu_ns(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000u +
           ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

int port_machine_ticks(uint64_t *busy, uint64_t *total)
{
    /* first line of /proc/stat: cpu user nice system idle iowait irq softirq steal ... */
    unsigned long long v[8] = {0};
    FILE *f = fopen("/proc/stat", "r");
    int n;
    if (!f)
        return -1;
    n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
               &v[7]);
    fclose(f);
    if (n < 4)
        return -1;
    *total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
    *busy = *total - v[3] - v[4];
    return 0;
}

int port_write_line(const char *line)
{
    /* every step is checked: a line that did not reach the file is an error, not a silent loss */
    if (fputs(line, stdout) == EOF || fputc('\n', stdout) == EOF || fflush(stdout) != 0 || ferror(stdout))
        return BENCH_ERR_OUTPUT;
    return 0;
}

void port_sleep_ns(uint64_t ns)
{
    struct timespec ts;
    ts.tv_sec = (time_t)(ns / 1000000000u);
    ts.tv_nsec = (long)(ns % 1000000000u);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static int to_sockaddr(const char *address, unsigned port, struct sockaddr_in *sa)
{
    memset(sa, 0, sizeof *sa);
    sa->sin_family = AF_INET;
    sa->sin_port = htons((uint16_t)port);
    if (port < 1 || port > 65535 || inet_pton(AF_INET, address, &sa->sin_addr) != 1)
        return BENCH_ERR_ARGUMENT;
    return 0;
}

int port_listen(const char *address, unsigned port)
{
    struct sockaddr_in sa;
    int one = 1, s;
    if (to_sockaddr(address, port, &sa) != 0)
        return BENCH_ERR_ARGUMENT;
    s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        return BENCH_ERR_IO;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    /* room for a handful of strays besides the tester: when the queue is full, the kernel leaves a
     * new handshake unanswered and the tester's connection waits a second for its retry */
    if (bind(s, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(s, 16) != 0) {
        close(s);
        return BENCH_ERR_IO;
    }
    return s;
}

static void describe_peer(const struct sockaddr_in *sa, char *peer, size_t peer_bytes)
{
    char host[INET_ADDRSTRLEN];
    if (!peer || peer_bytes == 0)
        return;
    if (sa->sin_family != AF_INET || !inet_ntop(AF_INET, &sa->sin_addr, host, sizeof host))
        snprintf(peer, peer_bytes, "an unknown peer");
    else
        snprintf(peer, peer_bytes, "%s:%u", host, (unsigned)ntohs(sa->sin_port));
}

int port_accept_any(const int *listeners, size_t count, unsigned timeout_ms, size_t *which, char *peer,
                    size_t peer_bytes)
{
    uint64_t deadline = port_now_ns() + (uint64_t)timeout_ms * 1000000u;
    struct pollfd fds[4];
    size_t i;
    int r;
    if (count < 1 || count > 4)
        return BENCH_ERR_ARGUMENT;
    for (;;) {
        uint64_t now = port_now_ns();
        for (i = 0; i < count; i++) {
            fds[i].fd = listeners[i];
            fds[i].events = POLLIN;
            fds[i].revents = 0;
        }
        /* past the deadline (or given none) it still looks once: a connection already waiting is taken */
        r = poll(fds, (nfds_t)count, now >= deadline ? 0 : (int)((deadline - now + 999999u) / 1000000u));
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            return BENCH_ERR_TIMEOUT;
        if (r < 0)
            return BENCH_ERR_IO;
        for (i = 0; i < count && !(fds[i].revents & POLLIN); i++) {
        }
        if (i == count)
            return BENCH_ERR_IO; /* a listener in error (POLLERR, POLLNVAL), not a connection */
        for (i = 0; i < count; i++) {
            if (fds[i].revents & POLLIN) {
                struct sockaddr_in sa;
                socklen_t len = sizeof sa;
                int s;
                memset(&sa, 0, sizeof sa);
                s = accept(listeners[i], (struct sockaddr *)&sa, &len);
                if (s < 0) {
                    /* a peer that connected and reset before we took it: nothing to serve */
                    if (errno == ECONNABORTED || errno == EINTR || errno == EAGAIN || errno == EPROTO)
                        break;
                    return BENCH_ERR_IO;
                }
                *which = i;
                describe_peer(&sa, peer, peer_bytes);
                return s;
            }
        }
    }
}

int port_connect(const char *address, unsigned port, unsigned timeout_ms)
{
    struct sockaddr_in sa;
    uint64_t deadline = port_now_ns() + (uint64_t)timeout_ms * 1000000u;
    if (to_sockaddr(address, port, &sa) != 0)
        return BENCH_ERR_ARGUMENT;
    for (;;) {
        int s = socket(AF_INET, SOCK_STREAM, 0), flags, err = 0, r;
        socklen_t len = sizeof err;
        struct pollfd pfd;
        uint64_t now;
        if (s < 0)
            return BENCH_ERR_IO;
        flags = fcntl(s, F_GETFL, 0);
        fcntl(s, F_SETFL, flags | O_NONBLOCK);
        r = connect(s, (struct sockaddr *)&sa, sizeof sa);
        if (r != 0 && errno == EINPROGRESS) {
            now = port_now_ns();
            pfd.fd = s;
            pfd.events = POLLOUT;
            r = poll(&pfd, 1, now < deadline ? (int)((deadline - now) / 1000000u) + 1 : 0);
            if (r == 1 && getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0)
                r = 0;
            else
                r = -1;
        }
        if (r == 0) {
            fcntl(s, F_SETFL, flags);
            return s;
        }
        close(s);
        /* nobody listening yet: try again until the deadline */
        now = port_now_ns();
        if (now >= deadline)
            return BENCH_ERR_CONNECT;
        port_sleep_ns(deadline - now < 50000000u ? deadline - now : 50000000u);
    }
}

int port_wait_any(const int *handles, size_t count, unsigned timeout_ms, unsigned char *ready)
{
    struct pollfd fds[PORT_WAIT_MAX];
    size_t i;
    int r;
    if (count < 1 || count > PORT_WAIT_MAX)
        return BENCH_ERR_ARGUMENT;
    for (i = 0; i < count; i++) {
        fds[i].fd = handles[i];
        fds[i].events = POLLIN;
        fds[i].revents = 0;
    }
    do
        r = poll(fds, (nfds_t)count, (int)timeout_ms);
    while (r < 0 && errno == EINTR);
    if (r == 0)
        return BENCH_ERR_TIMEOUT;
    if (r < 0)
        return BENCH_ERR_IO;
    /* POLLHUP, POLLERR and POLLNVAL count too: the accept or receive that follows answers at once */
    for (i = 0; i < count; i++)
        ready[i] = fds[i].revents != 0;
    return r;
}

static int wait_for(int s, short events, unsigned timeout_ms)
{
    struct pollfd pfd;
    int r;
    pfd.fd = s;
    pfd.events = events;
    do
        r = poll(&pfd, 1, (int)timeout_ms);
    while (r < 0 && errno == EINTR);
    if (r == 0)
        return BENCH_ERR_TIMEOUT;
    if (r < 0)
        return BENCH_ERR_IO;
    return 0;
}

int port_send_all(int handle, const void *buf, size_t n, unsigned timeout_ms)
{
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t w;
        int r = wait_for(handle, POLLOUT, timeout_ms);
        if (r != 0)
            return r;
        w = send(handle, p, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return errno == EPIPE || errno == ECONNRESET ? BENCH_ERR_PEER_CLOSED : BENCH_ERR_IO;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

long port_recv(int handle, void *buf, size_t n, unsigned timeout_ms)
{
    for (;;) {
        ssize_t r;
        int w = wait_for(handle, POLLIN, timeout_ms);
        if (w != 0)
            return w;
        r = recv(handle, buf, n, 0);
        if (r >= 0)
            return (long)r;
        if (errno == EINTR || errno == EAGAIN)
            continue;
        return errno == ECONNRESET ? BENCH_ERR_PEER_CLOSED : BENCH_ERR_IO;
    }
}

void port_close(int handle)
{
    if (handle >= 0)
        close(handle);
}
