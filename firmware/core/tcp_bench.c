/* tcp_bench.c - tester and testee of the NDK benchmark protocol (see tcp_bench.h). */
#include "tcp_bench.h"
#include "port.h"

#include <stdlib.h>
#include <string.h>

static const unsigned char MAGIC[4] = {'G', 'P', 'B', '1'};

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

static uint32_t get_u32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

void tcp_bench_put_u64(unsigned char out[8], uint64_t value)
{
    put_u32(out, (uint32_t)(value >> 32));
    put_u32(out + 4, (uint32_t)value);
}

uint64_t tcp_bench_get_u64(const unsigned char in[8])
{
    return ((uint64_t)get_u32(in) << 32) | get_u32(in + 4);
}

void tcp_bench_encode(const struct tcp_bench_header *h, unsigned char out[TCP_BENCH_HEADER_BYTES])
{
    memcpy(out, MAGIC, 4);
    put_u32(out + 4, h->kind);
    put_u32(out + 8, h->frame_bytes);
    put_u32(out + 12, h->frames);
    put_u32(out + 16, h->interval_us);
}

enum bench_status tcp_bench_decode(const unsigned char in[TCP_BENCH_HEADER_BYTES], struct tcp_bench_header *h)
{
    if (memcmp(in, MAGIC, 4) != 0)
        return BENCH_ERR_PROTOCOL;
    h->kind = get_u32(in + 4);
    h->frame_bytes = get_u32(in + 8);
    h->frames = get_u32(in + 12);
    h->interval_us = get_u32(in + 16);
    if (h->kind == TCP_BENCH_QUIT)
        return BENCH_OK;
    if (h->kind != TCP_BENCH_RECEIVE && h->kind != TCP_BENCH_TRANSMIT)
        return BENCH_ERR_PROTOCOL;
    if (h->frame_bytes < 1 || h->frame_bytes > TCP_BENCH_MAX_FRAME_BYTES || h->frames < 1 ||
        h->interval_us > TCP_BENCH_MAX_INTERVAL_US)
        return BENCH_ERR_PROTOCOL;
    return BENCH_OK;
}

static int address_ok(const char *address)
{
    size_t n;
    if (!address)
        return 0;
    for (n = 0; address[n]; n++) {
        char c = address[n];
        if (n >= TCP_BENCH_ADDRESS_MAX_CHARS)
            return 0;
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' || c == ':' ||
              c == '-'))
            return 0;
    }
    return n > 0;
}

#define TIMEOUT_MAX_MS 3600000u /* an hour: more is a mistake, and poll() takes an int */

static const char *check_common(const char *address, unsigned receive_port, unsigned transmit_port)
{
    if (!address_ok(address))
        return "the address must be one word of 1 to 45 letters, digits, '.', ':' or '-'";
    if (receive_port < 1 || receive_port > 65535 || transmit_port < 1 || transmit_port > 65535)
        return "the ports must be from 1 to 65535";
    if (receive_port == transmit_port)
        return "the receive and transmit ports must differ";
    return "";
}

enum bench_status tcp_testee_check(const struct tcp_testee_config *cfg, const char **why)
{
    *why = check_common(cfg->address, cfg->receive_port, cfg->transmit_port);
    if (!**why && (cfg->idle_timeout_ms < 1 || cfg->idle_timeout_ms > TIMEOUT_MAX_MS || cfg->io_timeout_ms < 1 ||
                   cfg->io_timeout_ms > TIMEOUT_MAX_MS))
        *why = "the timeouts must be from 1 to 3600000 ms";
    return **why ? BENCH_ERR_ARGUMENT : BENCH_OK;
}

enum bench_status tcp_tester_check(const struct tcp_tester_config *cfg, const char **why)
{
    size_t i;
    *why = check_common(cfg->address, cfg->receive_port, cfg->transmit_port);
    if (**why)
        return BENCH_ERR_ARGUMENT;
    if (cfg->connect_timeout_ms < 1 || cfg->connect_timeout_ms > TIMEOUT_MAX_MS || cfg->io_timeout_ms < 1 ||
        cfg->io_timeout_ms > TIMEOUT_MAX_MS)
        *why = "the timeouts must be from 1 to 3600000 ms";
    else if (cfg->frames < 1)
        *why = "a run needs at least 1 frame";
    else if (!cfg->frame_sizes || cfg->frame_size_count < 1)
        *why = "give at least one frame size";
    else if (!cfg->intervals_us || cfg->interval_count < 1)
        *why = "give at least one interval";
    for (i = 0; !**why && i < cfg->frame_size_count; i++)
        if (cfg->frame_sizes[i] < 1 || cfg->frame_sizes[i] > TCP_BENCH_MAX_FRAME_BYTES)
            *why = "frame sizes must be from 1 byte to 1 MiB";
    /* the receiving end waits io_timeout_ms for each frame: a longer pause would read as a lost peer */
    for (i = 0; !**why && i < cfg->interval_count; i++)
        if (cfg->intervals_us[i] / 1000u >= cfg->io_timeout_ms)
            *why = "every interval between frames must be shorter than the I/O timeout";
    return **why ? BENCH_ERR_ARGUMENT : BENCH_OK;
}

/* Receive exactly n bytes; *got counts what arrived. */
static enum bench_status recv_exact(int s, unsigned char *buf, size_t n, unsigned timeout_ms, uint64_t *got)
{
    size_t done = 0;
    while (done < n) {
        long r = port_recv(s, buf + done, n - done, timeout_ms);
        if (r < 0)
            return (enum bench_status)r;
        if (r == 0)
            return BENCH_ERR_PEER_CLOSED;
        done += (size_t)r;
        if (got)
            *got += (uint64_t)r;
    }
    return BENCH_OK;
}

struct load {
    uint64_t wall_ns, cpu_ns, busy, total;
    int machine;
};

static void load_start(struct load *l)
{
    l->machine = port_machine_ticks(&l->busy, &l->total) == 0;
    l->cpu_ns = port_cpu_ns();
    l->wall_ns = port_now_ns();
}

static void load_stop(struct load *l)
{
    uint64_t busy = 0, total = 0;
    l->wall_ns = port_now_ns() - l->wall_ns;
    l->cpu_ns = port_cpu_ns() - l->cpu_ns;
    if (l->machine && port_machine_ticks(&busy, &total) == 0) {
        l->busy = busy - l->busy;
        l->total = total - l->total;
    } else {
        l->machine = 0;
        l->busy = l->total = 0;
    }
}

static enum bench_status testee_report(const char *direction, const struct tcp_bench_header *h, uint64_t bytes,
                                       const struct load *l)
{
    struct bench_line line;
    enum bench_status st;
    uint64_t kbit = bench_kbit_per_s(bytes, l->wall_ns);
    unsigned cpu = bench_percent(l->cpu_ns, l->wall_ns);

    bench_line_start(&line, "BENCH-RESULT bench=tcp_testee");
    bench_line_add(&line, " direction=%s frame_bytes=%lu frames=%lu interval_us=%lu bytes=%llu", direction,
                   (unsigned long)h->frame_bytes, (unsigned long)h->frames, (unsigned long)h->interval_us,
                   (unsigned long long)bytes);
    bench_line_add(&line, " elapsed_ns=%llu cpu_ns=%llu machine_busy_ticks=%llu machine_total_ticks=%llu",
                   (unsigned long long)l->wall_ns, (unsigned long long)l->cpu_ns, (unsigned long long)l->busy,
                   (unsigned long long)l->total);
    st = bench_line_emit(&line);
    /* the NDK's sentences are parsed too (goodput.logs.ndk_console): each must be written */
    if (st == BENCH_OK && direction[0] == 'r') {
        st = bench_say("Received packets of %lu bytes for a total of %llu bytes", (unsigned long)h->frame_bytes,
                       (unsigned long long)bytes);
        if (st == BENCH_OK)
            st = bench_say("for a throughput of %llu kb/s at a CPU load of %u%%", (unsigned long long)kbit, cpu);
    } else if (st == BENCH_OK) {
        st = bench_say("Transmitted %lu frames of %lu bytes for a total of %llu", (unsigned long)h->frames,
                       (unsigned long)h->frame_bytes, (unsigned long long)bytes);
        if (st == BENCH_OK)
            st = bench_say("at a rate of %llu kb/s with a CPU load of %u%%", (unsigned long long)kbit, cpu);
    }
    if (st == BENCH_OK)
        st = bench_say("%s", "");
    return st;
}

static enum bench_status testee_error(const char *direction, const struct tcp_bench_header *h, uint64_t bytes,
                                      enum bench_status st)
{
    bench_say("BENCH-ERROR bench=tcp_testee direction=%s frame_bytes=%lu expected_bytes=%llu bytes=%llu error=%s",
              direction, (unsigned long)h->frame_bytes,
              (unsigned long long)((uint64_t)h->frame_bytes * h->frames), (unsigned long long)bytes,
              bench_strerror(st));
    /* the human line says what this end did; it opens with neither NDK sentence's words, which
     * goodput.logs.ndk_console takes for a run ("Transmitted " must be one) */
    if (st == BENCH_ERR_COUNT && direction[0] == 't')
        bench_say("The tester counted %llu of the %llu bytes sent: %s", (unsigned long long)bytes,
                  (unsigned long long)((uint64_t)h->frame_bytes * h->frames), bench_strerror(st));
    else
        bench_say("%s %llu of %llu bytes before: %s", direction[0] == 'r' ? "Received" : "Sent",
                  (unsigned long long)bytes, (unsigned long long)((uint64_t)h->frame_bytes * h->frames),
                  bench_strerror(st));
    return st;
}

static void pace(uint64_t start_ns, uint32_t frame, uint32_t interval_us)
{
    uint64_t due, now;
    if (interval_us == 0)
        return;
    due = start_ns + (uint64_t)frame * interval_us * 1000u;
    now = port_now_ns();
    if (due > now)
        port_sleep_ns(due - now);
}

static enum bench_status testee_receive(int s, const struct tcp_bench_header *h, unsigned io_timeout_ms,
                                        unsigned char *buf)
{
    uint64_t got = 0, expected = (uint64_t)h->frame_bytes * h->frames;
    unsigned char reply[8];
    struct load l;
    uint32_t f;
    enum bench_status st = BENCH_OK;

    load_start(&l);
    for (f = 0; f < h->frames && st == BENCH_OK; f++)
        st = recv_exact(s, buf, h->frame_bytes, io_timeout_ms, &got);
    load_stop(&l);
    if (st != BENCH_OK)
        return testee_error("receive", h, got, st);
    tcp_bench_put_u64(reply, got);
    st = (enum bench_status)port_send_all(s, reply, sizeof reply, io_timeout_ms);
    if (st != BENCH_OK)
        return testee_error("receive", h, got, st);
    if (got != expected)
        return testee_error("receive", h, got, BENCH_ERR_COUNT);
    return testee_report("receive", h, got, &l);
}

static enum bench_status testee_transmit(int s, const struct tcp_bench_header *h, unsigned io_timeout_ms,
                                         unsigned char *buf)
{
    uint64_t sent = 0, expected = (uint64_t)h->frame_bytes * h->frames, start;
    unsigned char reply[8];
    struct load l;
    uint32_t f;
    enum bench_status st = BENCH_OK;

    memset(buf, 0x5a, h->frame_bytes);
    load_start(&l);
    start = port_now_ns();
    for (f = 0; f < h->frames; f++) {
        pace(start, f, h->interval_us);
        st = (enum bench_status)port_send_all(s, buf, h->frame_bytes, io_timeout_ms);
        if (st != BENCH_OK)
            return testee_error("transmit", h, sent, st);
        sent += h->frame_bytes;
    }
    /* the tester's count arrives once it has every byte: the end of the run */
    st = recv_exact(s, reply, sizeof reply, io_timeout_ms, NULL);
    load_stop(&l);
    if (st != BENCH_OK)
        return testee_error("transmit", h, sent, st);
    if (tcp_bench_get_u64(reply) != expected)
        return testee_error("transmit", h, tcp_bench_get_u64(reply), BENCH_ERR_COUNT);
    return testee_report("transmit", h, sent, &l);
}

static const char *port_name(size_t which)
{
    return which == 0 ? "receive" : "transmit";
}

/* Name a connection that brought no run, and why; the testee goes on listening. */
static enum bench_status testee_ignore(const char *peer, size_t which, enum bench_status st, size_t got,
                                       unsigned io_timeout_ms)
{
    const char *port = port_name(which);
    if (st == BENCH_ERR_PEER_CLOSED)
        return bench_say("Ignored a connection from %s to the %s port: it closed after %lu of %u header bytes", peer,
                         port, (unsigned long)got, TCP_BENCH_HEADER_BYTES);
    if (st == BENCH_ERR_TIMEOUT)
        return bench_say("Ignored a connection from %s to the %s port: it sent %lu of %u header bytes in %u ms",
                         peer, port, (unsigned long)got, TCP_BENCH_HEADER_BYTES, io_timeout_ms);
    if (st == BENCH_ERR_PROTOCOL)
        return bench_say("Ignored a connection from %s to the %s port: its %u bytes are not a benchmark header "
                         "(bad magic, kind or size)", peer, port, TCP_BENCH_HEADER_BYTES);
    return bench_say("Ignored a connection from %s to the %s port: %s after %lu of %u header bytes", peer, port,
                     bench_strerror(st), (unsigned long)got, TCP_BENCH_HEADER_BYTES);
}

#if TCP_TESTEE_PENDING < 1 || TCP_TESTEE_PENDING + 2 > PORT_WAIT_MAX
#error "TCP_TESTEE_PENDING must be at least 1, and with the two listeners at most PORT_WAIT_MAX"
#endif

/* A connection accepted and waiting for its header. */
struct pending {
    int s;               /* the connection, or -1: a free slot */
    size_t which;        /* the port it came to: 0 receive, 1 transmit */
    size_t got;          /* header bytes so far */
    uint64_t due_ns;     /* its whole header is due io_timeout_ms after the accept */
    unsigned char raw[TCP_BENCH_HEADER_BYTES];
    char peer[64];
};

/* The testee waits on its listeners and on every pending connection at once, so a peer that
 * falls silent holds up no other: the first to bring a whole header is served. */
struct testee {
    const struct tcp_testee_config *cfg;
    unsigned char *buf;
    int listeners[2];
    struct pending pending[TCP_TESTEE_PENDING];
    unsigned served, ignored;
    uint64_t idle_deadline; /* no new connection is taken after it */
    int done;               /* the tester said so ('Q') */
};

static unsigned ms_until(uint64_t deadline_ns, uint64_t now_ns)
{
    return deadline_ns > now_ns ? (unsigned)((deadline_ns - now_ns + 999999u) / 1000000u) : 0u;
}

static void pending_close(struct pending *p)
{
    port_close(p->s);
    p->s = -1;
}

/* Close a pending connection as one that brought no run, named with why (st, or line when set). */
static enum bench_status testee_drop(struct testee *t, struct pending *p, enum bench_status st, const char *line)
{
    enum bench_status said =
        line ? bench_say("Ignored a connection from %s to the %s port: it had sent %lu of %u header bytes when %s",
                         p->peer, port_name(p->which), (unsigned long)p->got, TCP_BENCH_HEADER_BYTES, line)
             : testee_ignore(p->peer, p->which, st, p->got, t->cfg->io_timeout_ms);
    pending_close(p);
    t->ignored++;
    return said;
}

/* A whole header has come: serve the run it asks for, end at 'Q', or ignore it. */
static enum bench_status testee_header(struct testee *t, struct pending *p)
{
    const struct tcp_testee_config *cfg = t->cfg;
    struct tcp_bench_header h;
    enum bench_status st = tcp_bench_decode(p->raw, &h);

    if (st != BENCH_OK)
        return testee_drop(t, p, st, NULL);
    if (h.kind == TCP_BENCH_QUIT) {
        pending_close(p);
        t->done = 1;
        return BENCH_OK;
    }
    if ((h.kind == TCP_BENCH_RECEIVE) != (p->which == 0)) {
        st = bench_say("Ignored a connection from %s to the %s port: it asked to %s there", p->peer,
                       port_name(p->which), h.kind == TCP_BENCH_RECEIVE ? "receive" : "transmit");
    } else if (h.interval_us / 1000u >= cfg->io_timeout_ms) {
        /* a pause between frames as long as the I/O timeout would read as a lost peer at one end */
        st = bench_say("Ignored a connection from %s to the %s port: it asked for %lu us between frames, "
                       "not shorter than the I/O timeout of %u ms", p->peer, port_name(p->which),
                       (unsigned long)h.interval_us, cfg->io_timeout_ms);
    } else {
        /* a run: once it has begun, a broken stream is a lost run and ends the testee; the
         * other pending connections wait meanwhile, their deadlines running */
        st = h.kind == TCP_BENCH_RECEIVE ? testee_receive(p->s, &h, cfg->io_timeout_ms, t->buf)
                                         : testee_transmit(p->s, &h, cfg->io_timeout_ms, t->buf);
        pending_close(p);
        if (st == BENCH_OK) {
            t->served++;
            t->idle_deadline = port_now_ns() + (uint64_t)cfg->idle_timeout_ms * 1000000u;
        }
        return st;
    }
    pending_close(p);
    t->ignored++;
    return st;
}

/* Take what a pending connection has sent (the port said it is ready: this does not wait). */
static enum bench_status testee_read(struct testee *t, struct pending *p)
{
    long r = port_recv(p->s, p->raw + p->got, TCP_BENCH_HEADER_BYTES - p->got, 0);
    if (r == BENCH_ERR_TIMEOUT)
        return BENCH_OK; /* nothing after all: it waits on */
    if (r < 0)
        return testee_drop(t, p, (enum bench_status)r, NULL);
    if (r == 0)
        return testee_drop(t, p, BENCH_ERR_PEER_CLOSED, NULL);
    p->got += (size_t)r;
    return p->got < TCP_BENCH_HEADER_BYTES ? BENCH_OK : testee_header(t, p);
}

/* Accept a waiting connection into a free slot; when every slot is taken, the connection that
 * has waited longest makes way, so a crowd of silent peers cannot lock the tester out. */
static enum bench_status testee_accept(struct testee *t)
{
    struct pending *slot = NULL;
    char peer[sizeof slot->peer];
    size_t which = 0, i;
    int s = port_accept_any(t->listeners, 2, 0, &which, peer, sizeof peer);

    if (s == BENCH_ERR_TIMEOUT)
        return BENCH_OK; /* it reset before it was taken: nothing to serve */
    if (s < 0) {
        bench_say("BENCH-ERROR bench=tcp_testee error=cannot accept a connection after %u runs: %s", t->served,
                  bench_strerror((enum bench_status)s));
        return (enum bench_status)s;
    }
    for (i = 0; i < TCP_TESTEE_PENDING; i++) {
        struct pending *p = &t->pending[i];
        if (p->s < 0) {
            slot = p;
            break;
        }
        if (!slot || p->due_ns < slot->due_ns)
            slot = p;
    }
    if (slot->s >= 0) {
        enum bench_status st = testee_drop(t, slot, BENCH_OK, "a newer connection needed its place");
        if (st != BENCH_OK) {
            port_close(s);
            return st;
        }
    }
    slot->s = s;
    slot->which = which;
    slot->got = 0;
    slot->due_ns = port_now_ns() + (uint64_t)t->cfg->io_timeout_ms * 1000000u;
    memcpy(slot->peer, peer, sizeof peer);
    return BENCH_OK;
}

/* Wait for whichever comes first: a connection, bytes from a pending one, a header's deadline
 * or the idle timeout; then deal with it. After the idle timeout no connection is taken, but
 * those pending keep their deadlines; when none is left the testee gives up. */
static enum bench_status testee_step(struct testee *t)
{
    int handles[2 + TCP_TESTEE_PENDING];
    unsigned char ready[2 + TCP_TESTEE_PENDING];
    struct pending *of[2 + TCP_TESTEE_PENDING];
    uint64_t now = port_now_ns();
    int listening = now < t->idle_deadline, r;
    uint64_t until = listening ? t->idle_deadline : UINT64_MAX;
    size_t n = 0, k, i;
    unsigned served = t->served;
    enum bench_status st = BENCH_OK;

    for (i = 0; listening && i < 2; i++) {
        handles[n] = t->listeners[i];
        of[n++] = NULL;
    }
    for (i = 0; i < TCP_TESTEE_PENDING; i++) {
        struct pending *p = &t->pending[i];
        if (p->s < 0)
            continue;
        if (p->due_ns < until)
            until = p->due_ns;
        handles[n] = p->s;
        of[n++] = p;
    }
    if (n == 0) {
        bench_say("BENCH-ERROR bench=tcp_testee error=no tester within %u ms after %u runs "
                  "(%u connections ignored): %s", t->cfg->idle_timeout_ms, t->served, t->ignored,
                  bench_strerror(BENCH_ERR_TIMEOUT));
        return BENCH_ERR_TIMEOUT;
    }
    r = port_wait_any(handles, n, ms_until(until, now), ready);
    if (r < 0 && r != BENCH_ERR_TIMEOUT) {
        bench_say("BENCH-ERROR bench=tcp_testee error=cannot accept a connection after %u runs: %s", t->served,
                  bench_strerror((enum bench_status)r));
        return (enum bench_status)r;
    }
    /* what has come in first, so a header that arrived at its deadline still counts */
    for (k = 0; r > 0 && k < n && st == BENCH_OK && !t->done; k++) {
        if (ready[k] && of[k])
            st = testee_read(t, of[k]);
        if (t->served != served)
            return st; /* a run took its time: look again before any deadline is held against a peer */
    }
    if (st != BENCH_OK || t->done)
        return st;
    if (listening && r > 0 && (ready[0] || ready[1]))
        st = testee_accept(t);
    now = port_now_ns();
    for (i = 0; i < TCP_TESTEE_PENDING && st == BENCH_OK; i++)
        if (t->pending[i].s >= 0 && t->pending[i].due_ns <= now)
            st = testee_drop(t, &t->pending[i], BENCH_ERR_TIMEOUT, NULL);
    return st;
}

/* At the end, the connections still pending: named when the tester ended the testee, closed. */
static enum bench_status testee_close_pending(struct testee *t, enum bench_status st)
{
    size_t i;
    for (i = 0; i < TCP_TESTEE_PENDING; i++) {
        struct pending *p = &t->pending[i];
        if (p->s < 0)
            continue;
        if (st == BENCH_OK)
            st = testee_drop(t, p, BENCH_OK, "the tester said it was done");
        else
            pending_close(p);
    }
    return st;
}

enum bench_status tcp_testee_run(const struct tcp_testee_config *cfg)
{
    struct testee t;
    const char *why;
    enum bench_status st = tcp_testee_check(cfg, &why);
    size_t i;

    if (st != BENCH_OK)
        return st;
    memset(&t, 0, sizeof t);
    t.cfg = cfg;
    for (i = 0; i < TCP_TESTEE_PENDING; i++)
        t.pending[i].s = -1;
    t.buf = malloc(TCP_BENCH_MAX_FRAME_BYTES);
    if (!t.buf)
        return BENCH_ERR_MEMORY;
    st = bench_say("BENCH-CONFIG bench=tcp_testee address=%s receive_port=%u transmit_port=%u idle_timeout_ms=%u "
                   "io_timeout_ms=%u", cfg->address, cfg->receive_port, cfg->transmit_port, cfg->idle_timeout_ms,
                   cfg->io_timeout_ms);
    if (st == BENCH_OK)
        st = bench_say("Non-Copy TCP Testee Benchmark (goodput firmware)");
    if (st != BENCH_OK) {
        free(t.buf);
        return st;
    }
    t.listeners[0] = port_listen(cfg->address, cfg->receive_port);
    t.listeners[1] = t.listeners[0] < 0 ? -1 : port_listen(cfg->address, cfg->transmit_port);
    if (t.listeners[0] < 0 || t.listeners[1] < 0) {
        st = (enum bench_status)(t.listeners[0] < 0 ? t.listeners[0] : t.listeners[1]);
        bench_say("BENCH-ERROR bench=tcp_testee error=cannot listen on %s ports %u and %u: %s", cfg->address,
                  cfg->receive_port, cfg->transmit_port, bench_strerror(st));
        if (t.listeners[0] >= 0)
            port_close(t.listeners[0]);
        free(t.buf);
        return st;
    }
    t.idle_deadline = port_now_ns() + (uint64_t)cfg->idle_timeout_ms * 1000000u;
    while (st == BENCH_OK && !t.done)
        st = testee_step(&t);
    st = testee_close_pending(&t, st);
    port_close(t.listeners[0]);
    port_close(t.listeners[1]);
    free(t.buf);
    if (st == BENCH_OK)
        st = bench_say("BENCH-DONE bench=tcp_testee runs=%u status=ok", t.served);
    return st;
}

static enum bench_status tester_connect(const struct tcp_tester_config *cfg, unsigned port, int *s)
{
    *s = port_connect(cfg->address, port, cfg->connect_timeout_ms);
    if (*s < 0) {
        bench_say("BENCH-ERROR bench=tcp_tester error=cannot connect to %s:%u within %u ms: %s", cfg->address, port,
                  cfg->connect_timeout_ms, bench_strerror((enum bench_status)*s));
        return (enum bench_status)*s;
    }
    return BENCH_OK;
}

static enum bench_status tester_report(const char *direction, const struct tcp_bench_header *h, uint64_t bytes,
                                       uint64_t elapsed_ns)
{
    enum bench_status st = bench_say("BENCH-RESULT bench=tcp_tester direction=%s frame_bytes=%lu frames=%lu "
                                     "interval_us=%lu bytes=%llu elapsed_ns=%llu", direction,
                                     (unsigned long)h->frame_bytes, (unsigned long)h->frames,
                                     (unsigned long)h->interval_us, (unsigned long long)bytes,
                                     (unsigned long long)elapsed_ns);
    if (st != BENCH_OK)
        return st;
    return bench_say("%s %llu bytes in frames of %lu: %llu kb/s", direction[0] == 's' ? "Sent" : "Got",
                     (unsigned long long)bytes, (unsigned long)h->frame_bytes,
                     (unsigned long long)bench_kbit_per_s(bytes, elapsed_ns));
}

static enum bench_status tester_send(const struct tcp_tester_config *cfg, const struct tcp_bench_header *h,
                                     unsigned char *buf)
{
    unsigned char raw[TCP_BENCH_HEADER_BYTES], reply[8];
    uint64_t expected = (uint64_t)h->frame_bytes * h->frames, sent = 0, start, confirmed;
    uint32_t f;
    int s;
    enum bench_status st = tester_connect(cfg, cfg->receive_port, &s);

    if (st != BENCH_OK)
        return st;
    tcp_bench_encode(h, raw);
    st = (enum bench_status)port_send_all(s, raw, sizeof raw, cfg->io_timeout_ms);
    memset(buf, 0xa5, h->frame_bytes);
    start = port_now_ns();
    for (f = 0; f < h->frames && st == BENCH_OK; f++) {
        pace(start, f, h->interval_us);
        st = (enum bench_status)port_send_all(s, buf, h->frame_bytes, cfg->io_timeout_ms);
        if (st == BENCH_OK)
            sent += h->frame_bytes;
    }
    if (st == BENCH_OK)
        st = recv_exact(s, reply, sizeof reply, cfg->io_timeout_ms, NULL);
    port_close(s);
    if (st != BENCH_OK) {
        bench_say("BENCH-ERROR bench=tcp_tester direction=send bytes=%llu expected_bytes=%llu error=%s",
                  (unsigned long long)sent, (unsigned long long)expected, bench_strerror(st));
        return st;
    }
    confirmed = tcp_bench_get_u64(reply);
    if (confirmed != expected) {
        bench_say("BENCH-ERROR bench=tcp_tester direction=send bytes=%llu confirmed_bytes=%llu error=%s",
                  (unsigned long long)sent, (unsigned long long)confirmed, bench_strerror(BENCH_ERR_COUNT));
        return BENCH_ERR_COUNT;
    }
    return tester_report("send", h, sent, port_now_ns() - start);
}

static enum bench_status tester_receive(const struct tcp_tester_config *cfg, const struct tcp_bench_header *h,
                                        unsigned char *buf)
{
    unsigned char raw[TCP_BENCH_HEADER_BYTES], reply[8];
    uint64_t expected = (uint64_t)h->frame_bytes * h->frames, got = 0, start;
    struct tcp_bench_header asked = *h;
    int s;
    enum bench_status st = tester_connect(cfg, cfg->transmit_port, &s);

    if (st != BENCH_OK)
        return st;
    asked.kind = TCP_BENCH_TRANSMIT;
    tcp_bench_encode(&asked, raw);
    start = port_now_ns();
    st = (enum bench_status)port_send_all(s, raw, sizeof raw, cfg->io_timeout_ms);
    while (st == BENCH_OK && got < expected) {
        size_t want = expected - got < h->frame_bytes ? (size_t)(expected - got) : h->frame_bytes;
        st = recv_exact(s, buf, want, cfg->io_timeout_ms, &got);
    }
    if (st == BENCH_OK) {
        tcp_bench_put_u64(reply, got);
        st = (enum bench_status)port_send_all(s, reply, sizeof reply, cfg->io_timeout_ms);
    }
    port_close(s);
    if (st != BENCH_OK) {
        bench_say("BENCH-ERROR bench=tcp_tester direction=receive bytes=%llu expected_bytes=%llu error=%s",
                  (unsigned long long)got, (unsigned long long)expected, bench_strerror(st));
        return st;
    }
    return tester_report("receive", h, got, port_now_ns() - start);
}

enum bench_status tcp_tester_run(const struct tcp_tester_config *cfg)
{
    unsigned char *buf;
    const char *why;
    enum bench_status st = tcp_tester_check(cfg, &why);
    size_t i, j;

    if (st != BENCH_OK)
        return st;
    buf = malloc(TCP_BENCH_MAX_FRAME_BYTES);
    if (!buf)
        return BENCH_ERR_MEMORY;
    st = bench_say("BENCH-CONFIG bench=tcp_tester address=%s receive_port=%u transmit_port=%u frames=%lu "
                   "frame_sizes=%lu intervals=%lu connect_timeout_ms=%u io_timeout_ms=%u", cfg->address,
                   cfg->receive_port, cfg->transmit_port, (unsigned long)cfg->frames,
                   (unsigned long)cfg->frame_size_count, (unsigned long)cfg->interval_count,
                   cfg->connect_timeout_ms, cfg->io_timeout_ms);
    for (i = 0; i < cfg->frame_size_count && st == BENCH_OK; i++) {
        for (j = 0; j < cfg->interval_count && st == BENCH_OK; j++) {
            struct tcp_bench_header h;
            h.kind = TCP_BENCH_RECEIVE;
            h.frame_bytes = cfg->frame_sizes[i];
            h.frames = cfg->frames;
            h.interval_us = cfg->intervals_us[j];
            st = tester_send(cfg, &h, buf);
            if (st == BENCH_OK)
                st = tester_receive(cfg, &h, buf);
        }
    }
    if (st == BENCH_OK && cfg->quit) {
        unsigned char raw[TCP_BENCH_HEADER_BYTES];
        struct tcp_bench_header q;
        int s;
        memset(&q, 0, sizeof q);
        q.kind = TCP_BENCH_QUIT;
        st = tester_connect(cfg, cfg->receive_port, &s);
        if (st == BENCH_OK) {
            tcp_bench_encode(&q, raw);
            st = (enum bench_status)port_send_all(s, raw, sizeof raw, cfg->io_timeout_ms);
            port_close(s);
        }
    }
    free(buf);
    if (st == BENCH_OK)
        st = bench_say("BENCH-DONE bench=tcp_tester status=ok");
    return st;
}
