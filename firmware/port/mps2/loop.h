/* loop.h - the sockets of port.h over memory, for a target without a network.
 *
 * A connection is a pair of ring buffers of LOOP_RING_BYTES each, one per direction, so a
 * tester and a testee running as tasks (task.h) in one image exchange the benchmark protocol
 * as they would over TCP: a sender that finds the ring full, and a receiver that finds it
 * empty, yield to the other task until the ring has room or data, or their timeout passes.
 * Addresses are not used (any valid one reaches the loop); ports are. The loop counts every
 * byte written into and read out of the rings, for the byte accounting of tcp_loop_main.c.
 */
#ifndef GOODPUT_MPS2_LOOP_H
#define GOODPUT_MPS2_LOOP_H

#include <stdint.h>

#ifndef LOOP_RING_BYTES
#define LOOP_RING_BYTES 8192u /* per direction and connection: a small TCP window */
#endif
#define LOOP_LISTENERS 4u
#define LOOP_CONNECTIONS 4u

/* Bytes through the loop since the start, by direction: [0] from the connecting end to the
 * accepting end (tester to testee), [1] back. */
struct loop_counts {
    uint64_t written[2], read[2];
    unsigned connections; /* accepted */
};

void loop_counts(struct loop_counts *out);

#endif
