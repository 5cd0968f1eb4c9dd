/* loop.c - port.h's sockets over memory (see loop.h). Handles: a listener is its slot,
 * a connection's end is LOOP_LISTENERS + 2 x its slot + its side (0 connecting, 1 accepting). */
#include "loop.h"
#include "../../core/bench.h"
#include "../../core/port.h"
#include "task.h"

#include <stdio.h>
#include <string.h>

struct ring {
    unsigned char data[LOOP_RING_BYTES];
    uint64_t in, out; /* bytes written and read since the connection opened */
};

struct listener {
    int used;
    unsigned port;
};

struct connection {
    int used;
    size_t listener;
    uint64_t sequence; /* order of connect, so accept takes the oldest first */
    int accepted;
    int open[2];       /* each end: not yet closed */
    struct ring ring[2]; /* ring[s] carries what side s sends */
};

static struct listener listeners[LOOP_LISTENERS];
static struct connection connections[LOOP_CONNECTIONS];
static uint64_t connects;
static struct loop_counts counts;

void loop_counts(struct loop_counts *out)
{
    *out = counts;
}

static uint64_t deadline_of(unsigned timeout_ms)
{
    return port_now_ns() + (uint64_t)timeout_ms * 1000000u;
}

/* The connection and side of an end's handle, or NULL for a handle that is not an open end. */
static struct connection *end_of(int handle, int *side)
{
    size_t slot;
    if (handle < (int)LOOP_LISTENERS)
        return NULL;
    slot = (size_t)(handle - (int)LOOP_LISTENERS) / 2u;
    *side = (handle - (int)LOOP_LISTENERS) % 2;
    if (slot >= LOOP_CONNECTIONS || !connections[slot].used || !connections[slot].open[*side])
        return NULL;
    return &connections[slot];
}

int port_listen(const char *address, unsigned port)
{
    size_t i, free_slot = LOOP_LISTENERS;
    (void)address;
    if (port < 1 || port > 65535)
        return BENCH_ERR_ARGUMENT;
    for (i = 0; i < LOOP_LISTENERS; i++) {
        if (listeners[i].used && listeners[i].port == port)
            return BENCH_ERR_IO; /* the port is taken */
        if (!listeners[i].used && free_slot == LOOP_LISTENERS)
            free_slot = i;
    }
    if (free_slot == LOOP_LISTENERS)
        return BENCH_ERR_MEMORY;
    listeners[free_slot].used = 1;
    listeners[free_slot].port = port;
    return (int)free_slot;
}

int port_accept_any(const int *handles, size_t count, unsigned timeout_ms, size_t *which, char *peer,
                    size_t peer_bytes)
{
    uint64_t deadline = deadline_of(timeout_ms);
    size_t i, k;
    for (k = 0; k < count; k++)
        if (handles[k] < 0 || handles[k] >= (int)LOOP_LISTENERS || !listeners[handles[k]].used)
            return BENCH_ERR_ARGUMENT;
    for (;;) {
        struct connection *oldest = NULL;
        size_t oldest_k = 0;
        for (i = 0; i < LOOP_CONNECTIONS; i++) {
            struct connection *c = &connections[i];
            if (!c->used || c->accepted)
                continue;
            for (k = 0; k < count; k++)
                if ((size_t)handles[k] == c->listener && (!oldest || c->sequence < oldest->sequence)) {
                    oldest = c;
                    oldest_k = k;
                }
        }
        if (oldest) {
            size_t slot = (size_t)(oldest - connections);
            oldest->accepted = 1;
            counts.connections++;
            *which = oldest_k;
            if (peer && peer_bytes > 0)
                snprintf(peer, peer_bytes, "loop:%lu", (unsigned long)oldest->sequence);
            return (int)(LOOP_LISTENERS + 2u * slot + 1u);
        }
        if (port_now_ns() >= deadline)
            return BENCH_ERR_TIMEOUT;
        task_yield();
    }
}

/* Whether an accept or a receive on the handle would answer now: a listener with a connection
 * not yet accepted, an end with bytes to read or whose peer closed, or a handle that is not
 * open (its receive fails at once). */
static int handle_ready(int handle)
{
    size_t i;
    int side;
    struct connection *c;
    if (handle >= 0 && handle < (int)LOOP_LISTENERS) {
        for (i = 0; i < LOOP_CONNECTIONS; i++)
            if (connections[i].used && !connections[i].accepted && connections[i].listener == (size_t)handle)
                return 1;
        return !listeners[handle].used;
    }
    c = end_of(handle, &side);
    return !c || c->ring[!side].in != c->ring[!side].out || !c->open[!side];
}

int port_wait_any(const int *handles, size_t count, unsigned timeout_ms, unsigned char *ready)
{
    uint64_t deadline = deadline_of(timeout_ms);
    size_t k;
    if (count < 1 || count > PORT_WAIT_MAX)
        return BENCH_ERR_ARGUMENT;
    for (;;) {
        int n = 0;
        for (k = 0; k < count; k++) {
            ready[k] = (unsigned char)handle_ready(handles[k]);
            n += ready[k];
        }
        if (n > 0)
            return n;
        if (port_now_ns() >= deadline)
            return BENCH_ERR_TIMEOUT;
        task_yield();
    }
}

int port_connect(const char *address, unsigned port, unsigned timeout_ms)
{
    uint64_t deadline = deadline_of(timeout_ms);
    (void)address;
    for (;;) {
        size_t i, l;
        for (l = 0; l < LOOP_LISTENERS && !(listeners[l].used && listeners[l].port == port); l++) {
        }
        for (i = 0; l < LOOP_LISTENERS && i < LOOP_CONNECTIONS; i++) {
            struct connection *c = &connections[i];
            if (c->used)
                continue;
            memset(c, 0, sizeof *c);
            c->used = 1;
            c->listener = l;
            c->sequence = ++connects;
            c->open[0] = c->open[1] = 1;
            return (int)(LOOP_LISTENERS + 2u * i);
        }
        /* nobody listening on the port yet, or every connection in use: wait */
        if (port_now_ns() >= deadline)
            return BENCH_ERR_CONNECT;
        task_yield();
    }
}

int port_send_all(int handle, const void *buf, size_t n, unsigned timeout_ms)
{
    const unsigned char *p = buf;
    uint64_t deadline = deadline_of(timeout_ms);
    int side;
    struct connection *c = end_of(handle, &side);
    if (!c)
        return BENCH_ERR_ARGUMENT;
    while (n > 0) {
        struct ring *r = &c->ring[side];
        size_t room = LOOP_RING_BYTES - (size_t)(r->in - r->out), at, first, chunk;
        if (!c->open[!side])
            return BENCH_ERR_PEER_CLOSED;
        if (room == 0) {
            if (port_now_ns() >= deadline)
                return BENCH_ERR_TIMEOUT;
            task_yield();
            continue;
        }
        chunk = n < room ? n : room;
        at = (size_t)(r->in % LOOP_RING_BYTES);
        first = chunk < LOOP_RING_BYTES - at ? chunk : LOOP_RING_BYTES - at;
        memcpy(r->data + at, p, first);
        memcpy(r->data, p + first, chunk - first);
        r->in += chunk;
        counts.written[side] += chunk;
        p += chunk;
        n -= chunk;
        deadline = deadline_of(timeout_ms); /* the timeout is for silence, as on a socket */
    }
    return 0;
}

long port_recv(int handle, void *buf, size_t n, unsigned timeout_ms)
{
    uint64_t deadline = deadline_of(timeout_ms);
    int side;
    struct connection *c = end_of(handle, &side);
    if (!c)
        return BENCH_ERR_ARGUMENT;
    for (;;) {
        struct ring *r = &c->ring[!side];
        size_t ready = (size_t)(r->in - r->out), at, first, chunk;
        if (ready > 0 && n > 0) {
            chunk = n < ready ? n : ready;
            at = (size_t)(r->out % LOOP_RING_BYTES);
            first = chunk < LOOP_RING_BYTES - at ? chunk : LOOP_RING_BYTES - at;
            memcpy(buf, r->data + at, first);
            memcpy((unsigned char *)buf + first, r->data, chunk - first);
            r->out += chunk;
            counts.read[!side] += chunk;
            return (long)chunk;
        }
        if (!c->open[!side] || n == 0)
            return 0; /* the peer closed and everything it sent has been read */
        if (port_now_ns() >= deadline)
            return BENCH_ERR_TIMEOUT;
        task_yield();
    }
}

void port_close(int handle)
{
    int side;
    struct connection *c;
    if (handle >= 0 && handle < (int)LOOP_LISTENERS) {
        listeners[handle].used = 0;
        return;
    }
    c = end_of(handle, &side);
    if (!c)
        return;
    c->open[side] = 0;
    if (!c->open[!side])
        c->used = 0; /* what is left unread is lost, as on a socket: the counts show it */
}
