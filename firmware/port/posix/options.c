/* options.c - see options.h. */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int options_size(const char *text, uint64_t low, uint64_t high, uint64_t *out)
{
    char *end;
    unsigned long long v;
    uint64_t scale = 1;
    if (!text || !*text || *text == '-' || *text == '+')
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

int options_refuse(const char *program, const struct option *longs, int index, const char *value,
                   void (*usage)(FILE *))
{
    if (index < 0)
        fprintf(stderr, "%s: unexpected argument: %s\n", program, value ? value : "");
    else
        fprintf(stderr, "%s: bad value for --%s: %s\n", program, longs[index].name, value ? value : "");
    usage(stderr);
    return 2;
}
