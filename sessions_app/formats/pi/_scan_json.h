/* JSON scanning for _scan.c: validate a value as the Python reading would accept it, counting
 * the UTF-16 units of its strings and telling whether its text is what orjson.dumps writes
 * (docs/pi-compat.md, "Session files"). Included once, by _scan.c. */
#ifndef CUTPOINT_SCAN_JSON_H
#define CUTPOINT_SCAN_JSON_H

#define MAX_DEPTH 128 /* formats.jsonl.MAX_DEPTH: the line's own object is depth 1 */
#define MAX_KEYS 64   /* keys remembered per object to find repeats in tool arguments */

typedef struct {
    const unsigned char *p;
    const unsigned char *end;
} Cur;

/* One scanned string. */
typedef struct {
    const unsigned char *start; /* first byte after the opening quote */
    Py_ssize_t len;             /* raw bytes up to the closing quote */
    Py_ssize_t units;           /* UTF-16 code units of the decoded string */
    int escaped;                /* holds a backslash */
    int canonical;              /* escaped exactly as orjson.dumps / JSON.stringify escape */
} Str;

typedef struct {
    const unsigned char *start;
    Py_ssize_t len;
} Key;

static inline void
skip_ws(Cur *c)
{
    const unsigned char *p = c->p, *end = c->end;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    c->p = p;
}

/* Bytes that stand for themselves in a JSON string: ASCII, no control character, no quote, no
 * backslash. */
static unsigned char PLAIN[256];

static void
fill_plain(void)
{
    for (int ch = 0x20; ch < 0x80; ch++)
        PLAIN[ch] = ch != '"' && ch != '\\';
}

static inline int
hexval(unsigned char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* A string at c->p (an opening quote). 0, or -1 for anything to leave to the Python reading:
 * a raw control character, an unknown escape, a surrogate escape (orjson refuses a lone one;
 * pairs are rare enough to read slowly), UTF-8 that is not strictly valid. */
static int
scan_string(Cur *c, Str *s)
{
    const unsigned char *p = c->p + 1, *end = c->end;
    Py_ssize_t units = 0;
    int escaped = 0, canonical = 1;
    s->start = p;
    for (;;) {
        /* Runs of plain ASCII first: most of a line is text in strings. */
        const unsigned char *run = p;
        while (end - p >= 4 && PLAIN[p[0]] && PLAIN[p[1]] && PLAIN[p[2]] && PLAIN[p[3]])
            p += 4;
        while (p < end && PLAIN[*p])
            p++;
        units += p - run;
        if (p >= end)
            return -1;
        unsigned char ch = *p;
        if (ch == '"')
            break;
        if (ch < 0x20)
            return -1;
        if (ch == '\\') {
            escaped = 1;
            if (end - p < 2)
                return -1;
            unsigned char e = p[1];
            if (e == 'u') {
                if (end - p < 6)
                    return -1;
                int v = 0;
                for (int i = 2; i < 6; i++) {
                    int h = hexval(p[i]);
                    if (h < 0)
                        return -1;
                    if (p[i] >= 'A' && p[i] <= 'F')
                        canonical = 0;
                    v = v * 16 + h;
                }
                if (v >= 0xD800 && v <= 0xDFFF)
                    return -1;
                /* orjson.dumps writes \u00XX only below 0x20, and \b \t \n \f \r short */
                if (v >= 0x20 || v == 8 || v == 9 || v == 10 || v == 12 || v == 13)
                    canonical = 0;
                p += 6;
            }
            else if (e == '"' || e == '\\' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
                     e == 't') {
                p += 2;
            }
            else if (e == '/') {
                canonical = 0;
                p += 2;
            }
            else
                return -1;
            units++;
            continue;
        }
        /* UTF-8, strictly: no overlong forms, no surrogates, nothing past U+10FFFF */
        if (ch >= 0xC2 && ch <= 0xDF) {
            if (end - p < 2 || (p[1] & 0xC0) != 0x80)
                return -1;
            units++;
            p += 2;
        }
        else if (ch >= 0xE0 && ch <= 0xEF) {
            if (end - p < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
                return -1;
            if ((ch == 0xE0 && p[1] < 0xA0) || (ch == 0xED && p[1] >= 0xA0))
                return -1;
            units++;
            p += 3;
        }
        else if (ch >= 0xF0 && ch <= 0xF4) {
            if (end - p < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 ||
                (p[3] & 0xC0) != 0x80)
                return -1;
            if ((ch == 0xF0 && p[1] < 0x90) || (ch == 0xF4 && p[1] >= 0x90))
                return -1;
            units += 2;
            p += 4;
        }
        else
            return -1;
    }
    s->len = p - s->start;
    s->units = units;
    s->escaped = escaped;
    s->canonical = canonical;
    c->p = p + 1;
    return 0;
}

/* A number at c->p. Refuses what a double might not hold or orjson might read otherwise (more
 * than 18 integer digits, 30 fraction digits, an exponent of 3 digits). `canonical`: an integer
 * orjson.dumps writes back the same (no fraction, no exponent, not -0, at most 15 digits). */
static int
scan_number(Cur *c, int *canonical, int *zero)
{
    const unsigned char *p = c->p, *end = c->end;
    int neg = 0, nonzero = 0, fraction = 0, exponent = 0;
    if (*p == '-') {
        neg = 1;
        p++;
    }
    const unsigned char *digits = p;
    if (p < end && *p == '0')
        p++;
    else if (p < end && *p >= '1' && *p <= '9') {
        nonzero = 1;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    else
        return -1;
    Py_ssize_t n_int = p - digits;
    if (n_int > 18)
        return -1;
    if (p < end && *p == '.') {
        const unsigned char *f = ++p;
        while (p < end && *p >= '0' && *p <= '9') {
            if (*p != '0')
                nonzero = 1;
            p++;
        }
        if (p == f || p - f > 30)
            return -1;
        fraction = 1;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        const unsigned char *x = p;
        while (p < end && *p >= '0' && *p <= '9')
            p++;
        if (p == x || p - x > 2)
            return -1;
        exponent = 1;
    }
    *canonical = !fraction && !exponent && !(neg && !nonzero) && n_int <= 15;
    *zero = !nonzero;
    c->p = p;
    return 0;
}

static inline int
literal(Cur *c, const char *word, Py_ssize_t n)
{
    if (c->end - c->p < n || memcmp(c->p, word, n) != 0)
        return -1;
    c->p += n;
    return 0;
}

/* Any JSON value at c->p, inside a container at `depth`. With `canon` non-NULL, *canon is
 * cleared unless the value's text is exactly what orjson.dumps writes for its decoded value
 * (compact, canonical strings and integers, no repeated keys: `compaction.tokens.js_stringify`
 * of it has the same length as the text). *falsy: the decoded value is falsy in Python. */
static int scan_value(Cur *c, int depth, int *canon, int *falsy);

/* An object or array at c->p. `keys` (room for MAX_KEYS) records an object's keys to find
 * repeats while *canon holds; NULL when nothing is to be checked. */
static int
container_body(Cur *c, int depth, int *canon, int *falsy, Key *keys)
{
    unsigned char open = *c->p;
    unsigned char close = open == '{' ? '}' : ']';
    if (depth + 1 > MAX_DEPTH)
        return -1;
    int n_keys = 0;
    c->p++;
    const unsigned char *before = c->p;
    skip_ws(c);
    if (canon && c->p != before)
        *canon = 0;
    if (c->p < c->end && *c->p == close) {
        c->p++;
        *falsy = 1;
        return 0;
    }
    *falsy = 0;
    for (;;) {
        if (open == '{') {
            Str k;
            if (c->p >= c->end || *c->p != '"' || scan_string(c, &k) < 0)
                return -1;
            if (keys && *canon) {
                if (!k.canonical || n_keys == MAX_KEYS)
                    *canon = 0;
                else {
                    for (int i = 0; i < n_keys; i++)
                        if (keys[i].len == k.len && memcmp(keys[i].start, k.start, k.len) == 0) {
                            *canon = 0;
                            break;
                        }
                    keys[n_keys].start = k.start;
                    keys[n_keys++].len = k.len;
                }
            }
            before = c->p;
            skip_ws(c);
            if (c->p >= c->end || *c->p != ':')
                return -1;
            c->p++;
            if (canon && c->p != before + 1)
                *canon = 0;
        }
        before = c->p;
        skip_ws(c);
        if (canon && c->p != before)
            *canon = 0;
        int f;
        if (scan_value(c, depth + 1, canon, &f) < 0)
            return -1;
        before = c->p;
        skip_ws(c);
        if (canon && c->p != before)
            *canon = 0;
        if (c->p >= c->end)
            return -1;
        if (*c->p == close) {
            c->p++;
            return 0;
        }
        if (*c->p != ',')
            return -1;
        c->p++;
        before = c->p;
        skip_ws(c);
        if (canon && c->p != before)
            *canon = 0;
    }
}

/* Objects in tool arguments are checked for repeated keys down to this depth of the line;
 * deeper ones make the arguments "not as orjson writes them" (measured in Python instead). The
 * key table then sits in at most a dozen frames: at 1 KiB each in every frame, a line nested 124
 * deep overflowed a 128 KiB thread stack (musl's default). */
#define CANON_DEPTH 16

static int __attribute__((noinline))
keyed_object(Cur *c, int depth, int *canon, int *falsy)
{
    Key keys[MAX_KEYS];
    return container_body(c, depth, canon, falsy, keys);
}

static int
scan_container(Cur *c, int depth, int *canon, int *falsy)
{
    if (*c->p == '{' && canon && *canon) {
        if (depth < CANON_DEPTH)
            return keyed_object(c, depth, canon, falsy);
        *canon = 0;
    }
    return container_body(c, depth, canon, falsy, NULL);
}

static int
scan_value(Cur *c, int depth, int *canon, int *falsy)
{
    if (c->p >= c->end)
        return -1;
    unsigned char ch = *c->p;
    if (ch == '"') {
        Str s;
        if (scan_string(c, &s) < 0)
            return -1;
        if (canon && !s.canonical)
            *canon = 0;
        *falsy = s.units == 0;
        return 0;
    }
    if (ch == '{' || ch == '[')
        return scan_container(c, depth, canon, falsy);
    if (ch == '-' || (ch >= '0' && ch <= '9')) {
        int number_canon, zero;
        if (scan_number(c, &number_canon, &zero) < 0)
            return -1;
        if (canon && !number_canon)
            *canon = 0;
        *falsy = zero;
        return 0;
    }
    *falsy = ch != 't';
    if (ch == 't')
        return literal(c, "true", 4);
    if (ch == 'f')
        return literal(c, "false", 5);
    if (ch == 'n')
        return literal(c, "null", 4);
    return -1;
}

/* A value whose only use is to be valid. */
static inline int
skip_value(Cur *c, int depth)
{
    int falsy;
    return scan_value(c, depth, NULL, &falsy);
}

/* UTF-16 code units of raw UTF-8 text (already validated). */
static Py_ssize_t
raw_units(const unsigned char *p, const unsigned char *end)
{
    Py_ssize_t units = 0;
    for (; p < end; p++) {
        unsigned char ch = *p;
        units += (ch & 0xC0) != 0x80;
        units += ch >= 0xF0;
    }
    return units;
}

/* The `:` after a key and the blanks around it. */
static inline int
colon(Cur *c)
{
    skip_ws(c);
    if (c->p >= c->end || *c->p != ':')
        return -1;
    c->p++;
    skip_ws(c);
    return c->p < c->end ? 0 : -1;
}

/* After a member: 1 at the object's end, 0 before the next key, -1 on anything else. */
static inline int
next_member(Cur *c)
{
    skip_ws(c);
    if (c->p >= c->end)
        return -1;
    if (*c->p == '}') {
        c->p++;
        return 1;
    }
    if (*c->p != ',')
        return -1;
    c->p++;
    skip_ws(c);
    return 0;
}

/* The decoded text of a string scanned by scan_string (so valid, and without surrogate escapes). */
static PyObject *
decode_string(const Str *s)
{
    if (!s->escaped)
        return PyUnicode_DecodeUTF8((const char *)s->start, s->len, NULL);
    char *buf = PyMem_Malloc(s->len ? s->len : 1); /* unescaping never lengthens */
    if (!buf)
        return PyErr_NoMemory();
    Py_ssize_t n = 0;
    const unsigned char *p = s->start, *end = s->start + s->len;
    while (p < end) {
        if (*p != '\\') {
            buf[n++] = (char)*p++;
            continue;
        }
        unsigned char e = p[1];
        p += 2;
        switch (e) {
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u': {
            unsigned v = (unsigned)(hexval(p[0]) << 12 | hexval(p[1]) << 8 | hexval(p[2]) << 4 | hexval(p[3]));
            p += 4;
            if (v < 0x80)
                buf[n++] = (char)v;
            else if (v < 0x800) {
                buf[n++] = (char)(0xC0 | v >> 6);
                buf[n++] = (char)(0x80 | (v & 0x3F));
            }
            else {
                buf[n++] = (char)(0xE0 | v >> 12);
                buf[n++] = (char)(0x80 | (v >> 6 & 0x3F));
                buf[n++] = (char)(0x80 | (v & 0x3F));
            }
            break;
        }
        default: buf[n++] = (char)e; /* \" \\ \/ */
        }
    }
    PyObject *out = PyUnicode_DecodeUTF8(buf, n, NULL);
    PyMem_Free(buf);
    return out;
}

#endif
