/* options.c - see options.h. */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int options_size(const char *text, uint64_t low, uint64_t high, uint64_t *out)
{
    char *end;
    unsigned long long v;
    uint64_t scale = 1;
    /* digits first: strtoull would also take leading blanks, a sign or nothing at all */
    if (!text || *text < '0' || *text > '9')
        return -1;
    errno = 0;
    v = strtoull(text, &end, 10);
    if (errno || end == text)
        return -1;
    if (*end == 'K' || *end == 'k')
        scale = 1024u, end++;
    else if (*end == 'M')
        scale = 1024u * 1024u, end++;
    else if (*end == 'G')
        scale = 1024u * 1024u * 1024u, end++;
    if (*end != '\0' || v > UINT64_MAX / scale)
        return -1;
    v *= scale;
    if (v < low || v > high)
        return -1;
    *out = v;
    return 0;
}

int options_size_list(const char *text, uint64_t low, uint64_t high, uint32_t *out, size_t capacity)
{
    char item[32];
    size_t count = 0;
    const char *p = text;
    if (!text || !*text)
        return -1;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        uint64_t v;
        if (len == 0 || len >= sizeof item || count >= capacity || high > UINT32_MAX)
            return -1;
        memcpy(item, p, len);
        item[len] = '\0';
        if (options_size(item, low, high, &v) != 0)
            return -1;
        out[count++] = (uint32_t)v;
        if (!comma)
            return (int)count;
        p = comma + 1;
    }
}

int options_ipv4(const char *text)
{
    struct in_addr a;
    /* inet_pton takes exactly a.b.c.d in decimal: no names, no IPv6, no 256, no leading zeros */
    return text && strlen(text) < INET_ADDRSTRLEN && inet_pton(AF_INET, text, &a) == 1 ? 0 : -1;
}

int options_refuse(const char *program, const struct option *longs, int index, const char *value, const char *why,
                   void (*usage)(FILE *))
{
    size_t len = value ? strlen(value) : 0;
    int shown = len > 60 ? 40 : (int)len;

    if (index < 0)
        fprintf(stderr, "%s: unexpected argument: %.*s", program, shown, value ? value : "");
    else
        fprintf(stderr, "%s: bad value for --%s: %.*s", program, longs[index].name, shown, value ? value : "");
    if (len > 60)
        fprintf(stderr, "... (%lu characters)", (unsigned long)len);
    if (why)
        fprintf(stderr, " (%s)", why);
    fputc('\n', stderr);
    usage(stderr);
    return 2;
}

int options_refuse_number(const char *program, const struct option *longs, int index, const char *value,
                          uint64_t low, uint64_t high, void (*usage)(FILE *))
{
    char why[96];
    snprintf(why, sizeof why, "a whole number from %llu to %llu%s", (unsigned long long)low,
             (unsigned long long)high, high >= 1024u ? "; K, M and G multiply by 1024" : "");
    return options_refuse(program, longs, index, value, why, usage);
}

int options_refuse_config(const char *program, const char *why, void (*usage)(FILE *))
{
    fprintf(stderr, "%s: %s\n", program, why);
    usage(stderr);
    return 2;
}

int options_finish(const char *program, enum bench_status status)
{
    /* fflush and fclose report a failed write here; ferror remembers one that port_write_line saw */
    int lost = fflush(stdout) != 0;
    lost |= ferror(stdout) != 0;
    lost |= fclose(stdout) != 0;
    if (lost || status == BENCH_ERR_OUTPUT) {
        fprintf(stderr, "%s: %s to standard output: the log is incomplete\n", program,
                bench_strerror(BENCH_ERR_OUTPUT));
        return 1;
    }
    if (status != BENCH_OK) {
        fprintf(stderr, "%s: %s\n", program, bench_strerror(status));
        return 1;
    }
    return 0;
}
