/* Exact reads of one pi message line without decoding it (docs/pi-compat.md, "Session files").
 *
 * Planning a compaction on a pi file reads two things from about a third of its lines: pi's
 * token estimate of the kept tail and the tool calls of the summarized span. Decoding each of
 * those lines into Python objects only to count characters or find a path was most of `prepare`
 * (issue 35). This scanner validates the whole line in one pass and counts as it goes.
 *
 * The rule that keeps it exact: an answer is given only for a line that the Python reading
 * (`formats.jsonl.loads`: orjson, MAX_DEPTH) decodes without trouble and for which the answer is
 * the one the Python code computes from the decoded value. Anything else -- invalid JSON, a
 * surrogate escape, nesting past 128, a number a double might not hold, a key of interest that
 * repeats or is written with escapes, tool arguments that JSON.stringify would write differently
 * -- returns None, and the caller reads the line the Python way. So this can be less complete
 * than Python, never different (tests/formats/test_pi_scan.py holds it to that).
 */
#define _GNU_SOURCE /* memmem */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

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

static int
scan_container(Cur *c, int depth, int *canon, int *falsy)
{
    unsigned char open = *c->p;
    unsigned char close = open == '{' ? '}' : ']';
    if (depth + 1 > MAX_DEPTH)
        return -1;
    Key keys[MAX_KEYS]; /* only filled while *canon holds: 1 KiB a level, 128 KiB at MAX_DEPTH */
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
            if (canon && *canon) {
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

/* What a message's content block says, once the whole block is read (its keys in any order). */
enum { T_MISSING, T_TEXT, T_THINKING, T_TOOL_CALL, T_SNAKE_TOOL_CALL, T_IMAGE, T_OTHER };
enum { V_MISSING, V_STRING, V_OTHER };

typedef struct {
    int is_object;
    int type;
    int text, thinking, name; /* V_* */
    Py_ssize_t text_units, thinking_units;
    Str name_str;
    int has_arguments;
    const unsigned char *args_start, *args_end;
    int args_canon, args_falsy;
} Block;

static int
key_is(const Str *k, const char *word, Py_ssize_t n)
{
    return k->len == n && memcmp(k->start, word, n) == 0;
}
#define KEY_IS(k, w) key_is((k), (w), (Py_ssize_t)(sizeof(w) - 1))

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

/* A key at c->p of an object whose keys this scanner reads: escapes are refused, since an
 * escaped key could spell one it looks for. */
static inline int
plain_key(Cur *c, Str *k)
{
    if (c->p >= c->end || *c->p != '"' || scan_string(c, k) < 0 || k->escaped)
        return -1;
    return 0;
}

/* A string member of a block: V_STRING with its units, or V_OTHER. -1 when the key repeats. */
static int
block_string(Cur *c, int depth, int *kind, Py_ssize_t *units, Str *out)
{
    if (*kind != V_MISSING)
        return -1;
    if (*c->p == '"') {
        Str s;
        if (scan_string(c, &s) < 0)
            return -1;
        *kind = V_STRING;
        *units = s.units;
        if (out)
            *out = s;
        return 0;
    }
    *kind = V_OTHER;
    return skip_value(c, depth);
}

/* One element of the content array, at c->p, inside the array at `depth`. */
static int
scan_block(Cur *c, int depth, Block *b)
{
    memset(b, 0, sizeof(*b));
    if (*c->p != '{')
        return skip_value(c, depth);
    if (depth + 1 > MAX_DEPTH)
        return -1;
    b->is_object = 1;
    int seen_type = 0;
    c->p++;
    skip_ws(c);
    if (c->p < c->end && *c->p == '}') {
        c->p++;
        return 0;
    }
    for (;;) {
        Str k;
        if (plain_key(c, &k) < 0 || colon(c) < 0)
            return -1;
        int inner = depth + 1;
        if (KEY_IS(&k, "type")) {
            if (seen_type)
                return -1;
            seen_type = 1;
            if (*c->p == '"') {
                Str t;
                if (scan_string(c, &t) < 0 || t.escaped)
                    return -1;
                b->type = KEY_IS(&t, "text")        ? T_TEXT
                          : KEY_IS(&t, "thinking")  ? T_THINKING
                          : KEY_IS(&t, "toolCall")  ? T_TOOL_CALL
                          : KEY_IS(&t, "tool_call") ? T_SNAKE_TOOL_CALL
                          : KEY_IS(&t, "image")     ? T_IMAGE
                                                    : T_OTHER;
            }
            else {
                b->type = T_OTHER;
                if (skip_value(c, inner) < 0)
                    return -1;
            }
        }
        else if (KEY_IS(&k, "text")) {
            if (block_string(c, inner, &b->text, &b->text_units, NULL) < 0)
                return -1;
        }
        else if (KEY_IS(&k, "thinking")) {
            if (block_string(c, inner, &b->thinking, &b->thinking_units, NULL) < 0)
                return -1;
        }
        else if (KEY_IS(&k, "name")) {
            Py_ssize_t units;
            if (block_string(c, inner, &b->name, &units, &b->name_str) < 0)
                return -1;
        }
        else if (KEY_IS(&k, "arguments")) {
            if (b->has_arguments)
                return -1;
            b->has_arguments = 1;
            b->args_start = c->p;
            b->args_canon = 1;
            if (scan_value(c, inner, &b->args_canon, &b->args_falsy) < 0)
                return -1;
            b->args_end = c->p;
        }
        else if (skip_value(c, inner) < 0)
            return -1;
        int r = next_member(c);
        if (r < 0)
            return -1;
        if (r)
            return 0;
    }
}

/* What is computed from the content while it is read. */
enum { ESTIMATE, TOOL_CALLS };

typedef struct {
    int what;
    int assistant;       /* ESTIMATE: the assistant's rules, else a user's or a tool result's */
    long image_chars;    /* ESTIMATE: what an image counts outside an assistant */
    int unsure;          /* the Python code gives None for this message */
    Py_ssize_t chars;    /* ESTIMATE */
    PyObject *calls;     /* TOOL_CALLS: list of (name, arguments) */
    PyObject *tools;     /* TOOL_CALLS: None, or {name: the argument naming its file, or None} */
    const unsigned char *line;
} Task;

static int
estimate_block(Task *t, const Block *b)
{
    if (!b->is_object)
        return 0; /* pi_chars skips what is not an object */
    if (t->assistant) {
        switch (b->type) {
        case T_TEXT:
            if (b->text != V_STRING)
                t->unsure = 1;
            t->chars += b->text_units;
            return 0;
        case T_THINKING:
            if (b->thinking != V_STRING)
                t->unsure = 1;
            t->chars += b->thinking_units;
            return 0;
        case T_TOOL_CALL:
            if (b->name != V_STRING)
                t->unsure = 1;
            t->chars += b->name_str.units;
            if (!b->has_arguments || b->args_falsy)
                t->chars += 2; /* `args or {}`: "{}" */
            else if (!b->args_canon)
                t->unsure = 1; /* JSON.stringify would write it otherwise: measured in Python */
            else
                t->chars += raw_units(b->args_start, b->args_end);
            return 0;
        case T_IMAGE:
            return 0;
        default:
            t->unsure = 1;
            return 0;
        }
    }
    switch (b->type) {
    case T_TEXT:
        if (b->text != V_STRING)
            t->unsure = 1;
        t->chars += b->text_units;
        return 0;
    case T_IMAGE:
        t->chars += t->image_chars;
        return 0;
    case T_THINKING:
    case T_TOOL_CALL:
        return 0;
    default:
        t->unsure = 1;
        return 0;
    }
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

/* For a tool that names its file in one argument: arguments (validated text) reduced to that
 * argument, {key: value} when it holds a string (the last one, as a decoder keeps), {} when it
 * holds anything else or is absent, None when the arguments are no object. File tracking reads
 * nothing else of them, and decoding an edit's old and new text only to drop it was a fifth of
 * planning a compaction (issue 35). */
static PyObject *
one_argument(const unsigned char *start, const unsigned char *end, PyObject *key)
{
    if (*start != '{')
        Py_RETURN_NONE;
    Py_ssize_t key_len;
    const char *key_text = PyUnicode_AsUTF8AndSize(key, &key_len);
    if (!key_text)
        return NULL;
    Cur c = {start + 1, end};
    Str value;
    int found = 0;
    skip_ws(&c);
    if (*c.p != '}') {
        for (;;) {
            Str k;
            if (scan_string(&c, &k) < 0 || colon(&c) < 0)
                goto invalid;
            const unsigned char *v = c.p;
            int matches = 0;
            if (!k.escaped)
                matches = k.len == key_len && memcmp(k.start, key_text, key_len) == 0;
            else {
                PyObject *decoded = decode_string(&k);
                if (!decoded)
                    return NULL;
                matches = PyUnicode_Compare(decoded, key) == 0;
                Py_DECREF(decoded);
            }
            if (skip_value(&c, 1) < 0)
                goto invalid;
            if (matches) {
                found = *v == '"';
                if (found) {
                    Cur vc = {v, c.p};
                    if (scan_string(&vc, &value) < 0)
                        goto invalid;
                }
            }
            int r = next_member(&c);
            if (r < 0)
                goto invalid;
            if (r)
                break;
        }
    }
    PyObject *out = PyDict_New();
    if (!out || !found)
        return out;
    PyObject *text = decode_string(&value);
    if (!text || PyDict_SetItem(out, key, text) < 0) {
        Py_XDECREF(text);
        Py_DECREF(out);
        return NULL;
    }
    Py_DECREF(text);
    return out;
invalid: /* cannot happen: the line was validated whole */
    PyErr_SetString(PyExc_ValueError, "arguments changed between two scans");
    return NULL;
}

static int
collect_block(Task *t, const Block *b)
{
    if (!b->is_object)
        return 0;
    if (b->type == T_SNAKE_TOOL_CALL) {
        t->unsure = 1; /* estimate.tool_call_blocks gives None */
        return 0;
    }
    if (b->type != T_TOOL_CALL || b->name != V_STRING)
        return 0;
    if (b->name_str.escaped) {
        t->unsure = 1;
        return 0;
    }
    PyObject *name = PyUnicode_DecodeUTF8((const char *)b->name_str.start, b->name_str.len, NULL);
    if (!name)
        return -1;
    PyObject *args, *key = NULL;
    if (t->tools != Py_None) {
        key = PyDict_GetItemWithError(t->tools, name); /* borrowed */
        if (!key) {
            Py_DECREF(name);
            return PyErr_Occurred() ? -1 : 0; /* not a tool file tracking reads */
        }
    }
    if (!b->has_arguments)
        args = Py_NewRef(Py_None);
    else if (key && key != Py_None)
        args = one_argument(b->args_start, b->args_end, key);
    else
        args = PyBytes_FromStringAndSize((const char *)b->args_start, b->args_end - b->args_start);
    if (!args) {
        Py_DECREF(name);
        return -1;
    }
    PyObject *pair = PyTuple_Pack(2, name, args);
    Py_DECREF(name);
    Py_DECREF(args);
    if (!pair)
        return -1;
    int r = PyList_Append(t->calls, pair);
    Py_DECREF(pair);
    return r;
}

/* Python errors (memory) give -2, a line to leave to Python -1. */
static int
scan_content(Cur *c, Task *t, int depth, int *content_kind, Py_ssize_t *string_units)
{
    if (*c->p == '"') {
        Str s;
        if (scan_string(c, &s) < 0)
            return -1;
        *content_kind = V_STRING;
        *string_units = s.units;
        return 0;
    }
    if (*c->p != '[') {
        *content_kind = V_OTHER;
        if (*c->p == 'n' && literal(c, "null", 4) == 0)
            *content_kind = V_MISSING; /* null reads as a missing key (m.get) */
        else if (skip_value(c, depth) < 0)
            return -1;
        return 0;
    }
    *content_kind = -1; /* a list */
    if (depth + 1 > MAX_DEPTH)
        return -1;
    c->p++;
    skip_ws(c);
    if (c->p < c->end && *c->p == ']') {
        c->p++;
        return 0;
    }
    for (;;) {
        Block b;
        if (c->p >= c->end || scan_block(c, depth + 1, &b) < 0)
            return -1;
        if (t->what == ESTIMATE)
            estimate_block(t, &b);
        else if (collect_block(t, &b) < 0)
            return -2;
        skip_ws(c);
        if (c->p >= c->end)
            return -1;
        if (*c->p == ']') {
            c->p++;
            return 0;
        }
        if (*c->p != ',')
            return -1;
        c->p++;
        skip_ws(c);
    }
}

/* The message object at c->p (depth 2). Sets *role (the role's string, plain) and the content. */
static int
scan_message(Cur *c, Task *t, Str *role, int *has_role, int *content_kind, Py_ssize_t *units)
{
    int seen_content = 0;
    *has_role = 0;
    *content_kind = V_MISSING;
    c->p++;
    skip_ws(c);
    if (c->p < c->end && *c->p == '}') {
        c->p++;
        return 0;
    }
    for (;;) {
        Str k;
        if (plain_key(c, &k) < 0 || colon(c) < 0)
            return -1;
        if (KEY_IS(&k, "role")) {
            if (*has_role || *c->p != '"' || scan_string(c, role) < 0 || role->escaped)
                return -1; /* repeated, not a plain string: Python decides */
            *has_role = 1;
        }
        else if (KEY_IS(&k, "content")) {
            if (seen_content)
                return -1;
            seen_content = 1;
            int r = scan_content(c, t, 2, content_kind, units);
            if (r < 0)
                return r;
        }
        else if (skip_value(c, 2) < 0)
            return -1;
        int r = next_member(c);
        if (r < 0)
            return -1;
        if (r)
            return 0;
    }
}

/* The whole line: a top-level object whose one "message" member is an object, then nothing but
 * blanks. Returns the role as a str, or NULL with *leave set (or a Python error set). */
static PyObject *
scan_line(const unsigned char *line, Py_ssize_t n, Task *t, int *content_kind, Py_ssize_t *units,
          int *leave)
{
    Cur c = {line, line + n};
    Str role;
    int has_role = 0, seen_message = 0;
    *leave = 1;
    skip_ws(&c);
    if (c.p >= c.end || *c.p != '{')
        return NULL;
    c.p++;
    skip_ws(&c);
    if (c.p < c.end && *c.p == '}')
        return NULL; /* no message */
    for (;;) {
        Str k;
        if (plain_key(&c, &k) < 0 || colon(&c) < 0)
            return NULL;
        if (KEY_IS(&k, "message")) {
            if (seen_message || *c.p != '{')
                return NULL;
            seen_message = 1;
            int r = scan_message(&c, t, &role, &has_role, content_kind, units);
            if (r == -2) {
                *leave = 0;
                return NULL;
            }
            if (r < 0)
                return NULL;
        }
        else if (skip_value(&c, 1) < 0)
            return NULL;
        int r = next_member(&c);
        if (r < 0)
            return NULL;
        if (r)
            break;
    }
    skip_ws(&c);
    if (c.p != c.end || !seen_message || !has_role)
        return NULL;
    *leave = 0;
    return PyUnicode_DecodeUTF8((const char *)role.start, role.len, NULL);
}

static int
line_arg(PyObject *arg, const unsigned char **line, Py_ssize_t *n)
{
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "a line must be bytes");
        return -1;
    }
    *line = (const unsigned char *)PyBytes_AS_STRING(arg);
    *n = PyBytes_GET_SIZE(arg);
    return 0;
}

static PyObject *
estimate_chars(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    const unsigned char *line;
    Py_ssize_t n;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "estimate_chars(line, assistant, image_chars)");
        return NULL;
    }
    if (line_arg(args[0], &line, &n) < 0)
        return NULL;
    int assistant = PyObject_IsTrue(args[1]);
    long image_chars = PyLong_AsLong(args[2]);
    if (assistant < 0 || (image_chars == -1 && PyErr_Occurred()))
        return NULL;
    Task t = {ESTIMATE, assistant, image_chars, 0, 0, NULL, Py_None, line};
    int content_kind, leave;
    Py_ssize_t units = 0;
    PyObject *role = scan_line(line, n, &t, &content_kind, &units, &leave);
    if (!role) {
        if (leave && !PyErr_Occurred())
            Py_RETURN_NONE;
        return NULL;
    }
    Py_ssize_t chars = t.chars;
    if (content_kind == V_STRING && !assistant)
        chars = units;
    else if (content_kind != -1)
        t.unsure = 1; /* not a list (a string counts for a user or a tool result only) */
    if (t.unsure) {
        Py_DECREF(role);
        Py_RETURN_NONE;
    }
    PyObject *count = PyLong_FromSsize_t(chars);
    if (!count) {
        Py_DECREF(role);
        return NULL;
    }
    PyObject *out = PyTuple_Pack(2, role, count);
    Py_DECREF(role);
    Py_DECREF(count);
    return out;
}

/* Whether the line's text holds `"name":"T"` for a tool T of `tools`: the test file tracking
 * makes before reading a line (lazy.py, _FILE_TOOL_CALL), here without a regular expression.
 * pi writes a name literally and a quote inside a string is always escaped, so a line without
 * one cannot call such a tool. 1, 0, or -1 with a Python error. */
static int
names_a_tool(const unsigned char *line, Py_ssize_t n, PyObject *tools)
{
    static const char needle[] = "\"name\":\"";
    const Py_ssize_t m = sizeof(needle) - 1;
    const unsigned char *p = line, *end = line + n;
    while (end - p > m) {
        const unsigned char *hit = memmem(p, end - p, needle, m);
        if (!hit)
            return 0;
        const unsigned char *name = hit + m;
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(tools, &pos, &key, &value)) {
            Py_ssize_t len;
            const char *text = PyUnicode_AsUTF8AndSize(key, &len);
            if (!text)
                return -1;
            if (end - name > len && memcmp(name, text, len) == 0 && name[len] == '"')
                return 1;
        }
        p = hit + 1;
    }
    return 0;
}

static PyObject *
tool_calls(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    const unsigned char *line;
    Py_ssize_t n;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "tool_calls(line, tools=None)");
        return NULL;
    }
    if (line_arg(args[0], &line, &n) < 0)
        return NULL;
    PyObject *tools = nargs == 2 ? args[1] : Py_None;
    if (tools != Py_None) {
        if (!PyDict_Check(tools)) {
            PyErr_SetString(PyExc_TypeError, "tools must be a dict or None");
            return NULL;
        }
        int named = names_a_tool(line, n, tools);
        if (named < 0)
            return NULL;
        if (!named)
            return PyList_New(0);
    }
    PyObject *calls = PyList_New(0);
    if (!calls)
        return NULL;
    Task t = {TOOL_CALLS, 0, 0, 0, 0, calls, tools, line};
    int content_kind, leave;
    Py_ssize_t units = 0;
    PyObject *role = scan_line(line, n, &t, &content_kind, &units, &leave);
    if (!role) {
        Py_DECREF(calls);
        if (leave && !PyErr_Occurred())
            Py_RETURN_NONE;
        return NULL;
    }
    /* estimate.tool_call_blocks: a string or no content has no calls, anything else but a list
     * makes the answer None */
    if (content_kind == V_STRING || content_kind == V_MISSING)
        PyList_SetSlice(calls, 0, PyList_GET_SIZE(calls), NULL);
    else if (content_kind != -1)
        t.unsure = 1;
    if (t.unsure) {
        Py_DECREF(role);
        Py_DECREF(calls);
        Py_RETURN_NONE;
    }
    PyObject *out = PyTuple_Pack(2, role, calls);
    Py_DECREF(role);
    Py_DECREF(calls);
    return out;
}

/* ---- the head of a message line (reader.parse) ---------------------------------------------- */

/* A run of "plain" bytes at p (reader._PLAIN: no quote, backslash, newline or non-ASCII byte),
 * then the closing quote; returns the quote's position, or NULL. */
static const unsigned char *
plain_run(const unsigned char *p, const unsigned char *end)
{
    while (p < end && *p != '"' && *p != '\\' && *p != '\n' && *p < 0x80)
        p++;
    return p < end && *p == '"' ? p : NULL;
}

static inline int
starts(const unsigned char **p, const unsigned char *end, const char *text, Py_ssize_t n)
{
    if (end - *p < n || memcmp(*p, text, n) != 0)
        return 0;
    *p += n;
    return 1;
}
#define STARTS(p, end, w) starts((p), (end), (w), (Py_ssize_t)(sizeof(w) - 1))

/* `"id":"PLAIN","parentId":(null|"PLAIN")` at *p: the id's and parent's spans (parent NULL for
 * null). */
static int
id_pair(const unsigned char **p, const unsigned char *end, const unsigned char **id,
        const unsigned char **id_end, const unsigned char **parent, const unsigned char **parent_end)
{
    const unsigned char *q = *p;
    if (!STARTS(&q, end, "\"id\":\""))
        return 0;
    *id = q;
    if (!(*id_end = plain_run(q, end)))
        return 0;
    q = *id_end + 1;
    if (!STARTS(&q, end, ",\"parentId\":"))
        return 0;
    if (STARTS(&q, end, "null"))
        *parent = *parent_end = NULL;
    else {
        if (!STARTS(&q, end, "\""))
            return 0;
        *parent = q;
        if (!(*parent_end = plain_run(q, end)))
            return 0;
        q = *parent_end + 1;
    }
    *p = q;
    return 1;
}

static PyObject *
ascii(const unsigned char *start, const unsigned char *end)
{
    if (!start)
        Py_RETURN_NONE;
    return PyUnicode_DecodeASCII((const char *)start, end - start, NULL);
}

/* message_head(line) -> (key, parent, timestamp, pi role) | None
 *
 * Exactly what reader._MESSAGE_LINE's full match gives, read without a regular expression: a
 * message line as pi writes it, whose kind, ids, timestamp and role sit as plain ASCII in pi's
 * key order or with the ids last (pi's migration), the payload skipped. key and parent are None
 * for a line without ids (v1); a line with ids in both places gives None (reader decodes it, so
 * that the last ones count). tests/formats/test_pi_scan_head.py holds it to the pattern. */
static PyObject *
message_head(PyObject *module, PyObject *arg)
{
    const unsigned char *line, *end;
    Py_ssize_t n;
    if (line_arg(arg, &line, &n) < 0)
        return NULL;
    end = line + n;
    const unsigned char *p = line;
    const unsigned char *id = NULL, *id_end = NULL, *parent = NULL, *parent_end = NULL;
    int head_ids = 0;
    if (!STARTS(&p, end, "{\"type\":\"message\","))
        Py_RETURN_NONE;
    if (id_pair(&p, end, &id, &id_end, &parent, &parent_end)) {
        if (!STARTS(&p, end, ","))
            Py_RETURN_NONE;
        head_ids = 1;
    }
    if (!STARTS(&p, end, "\"timestamp\":\""))
        Py_RETURN_NONE;
    const unsigned char *ts = p, *ts_end = plain_run(p, end);
    if (!ts_end)
        Py_RETURN_NONE;
    p = ts_end + 1;
    if (!STARTS(&p, end, ",\"message\":{\"role\":\""))
        Py_RETURN_NONE;
    const unsigned char *role = p;
    while (p < end && ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
        p++;
    if (p == role || p >= end || *p != '"')
        Py_RETURN_NONE;
    const unsigned char *role_end = p++;
    /* The tail: the line's own newline, JSON blanks, then `}}` or the migration's ids and `}`,
     * the payload in between (at least nothing) after the role. */
    const unsigned char *t = end;
    if (t > p && t[-1] == '\n')
        t--;
    while (t > p && (t[-1] == ' ' || t[-1] == '\t' || t[-1] == '\r'))
        t--;
    const unsigned char *tail_id = NULL, *tail_id_end = NULL, *tail_parent = NULL,
                        *tail_parent_end = NULL;
    int tail_ids = 0;
    if (t - p >= 2 && t[-1] == '}' && t[-2] == '}') {
        /* `}}`: the pattern's first alternative, the one its greedy payload meets first */
    }
    else {
        /* `},"id":"PLAIN","parentId":(null|"PLAIN")}`: find the `}` it starts with. Plain
         * runs hold no quote, so the text after that brace is fixed: look back for it. */
        if (t - p < 1 || t[-1] != '}')
            Py_RETURN_NONE;
        const unsigned char *q = t - 1; /* the closing brace */
        /* the parent: null or "PLAIN" */
        const unsigned char *before_parent;
        if (q - p >= 4 && memcmp(q - 4, "null", 4) == 0)
            before_parent = q - 4;
        else {
            if (q <= p || q[-1] != '"')
                Py_RETURN_NONE;
            tail_parent_end = q - 1;
            const unsigned char *r = tail_parent_end;
            while (r > p && r[-1] != '"' && r[-1] != '\\' && r[-1] != '\n' && r[-1] < 0x80)
                r--;
            if (r <= p || r[-1] != '"')
                Py_RETURN_NONE;
            tail_parent = r;
            before_parent = r - 1;
        }
        static const char mid[] = ",\"parentId\":";
        const Py_ssize_t m = sizeof(mid) - 1;
        if (before_parent - p < m || memcmp(before_parent - m, mid, m) != 0)
            Py_RETURN_NONE;
        const unsigned char *r = before_parent - m; /* just after the id's closing quote */
        if (r <= p || r[-1] != '"')
            Py_RETURN_NONE;
        tail_id_end = r - 1;
        r = tail_id_end;
        while (r > p && r[-1] != '"' && r[-1] != '\\' && r[-1] != '\n' && r[-1] < 0x80)
            r--;
        static const char lead[] = "},\"id\":\"";
        const Py_ssize_t l = sizeof(lead) - 1;
        if (r - p < l || memcmp(r - l, lead, l) != 0)
            Py_RETURN_NONE;
        tail_id = r;
        tail_ids = 1;
    }
    if (head_ids && tail_ids)
        Py_RETURN_NONE;
    if (tail_ids) {
        id = tail_id;
        id_end = tail_id_end;
        parent = tail_parent;
        parent_end = tail_parent_end;
    }
    PyObject *out = PyTuple_New(4);
    if (!out)
        return NULL;
    PyObject *items[4] = {ascii(id, id_end), ascii(parent, parent_end), ascii(ts, ts_end),
                          ascii(role, role_end)};
    for (int i = 0; i < 4; i++) {
        if (!items[i]) {
            for (int j = 0; j < 4; j++)
                Py_XDECREF(items[j]);
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, items[i]);
    }
    return out;
}

static PyMethodDef scan_methods[] = {
    {"estimate_chars", (PyCFunction)(void (*)(void))estimate_chars, METH_FASTCALL,
     "estimate_chars(line, assistant, image_chars) -> (role, chars) | None\n\n"
     "The characters pi's estimate counts in the message of a pi line, and the message's role;\n"
     "None when the line must be decoded to tell."},
    {"tool_calls", (PyCFunction)(void (*)(void))tool_calls, METH_FASTCALL,
     "tool_calls(line, tools=None) -> (role, [(name, arguments), ...]) | [] | None\n\n"
     "The toolCall blocks of the message of a pi line, named by a string, in order, with their\n"
     "raw arguments (None without any); None when the line must be decoded to tell. With tools\n"
     "({name: the argument naming its file, or None}): [] when the text names none of them,\n"
     "else only their calls, and for a tool with an argument named, {argument: text} instead\n"
     "of the raw arguments ({} without a string there, None when they are no object)."},
    {"message_head", (PyCFunction)message_head, METH_O,
     "message_head(line) -> (key, parent, timestamp, pi role) | None\n\n"
     "What reader._MESSAGE_LINE's full match gives of a message line, or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef scan_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sessions_app.formats.pi._scan",
    .m_doc = "Exact reads of a pi message line without decoding it (see lazy.py).",
    .m_size = -1,
    .m_methods = scan_methods,
};

PyMODINIT_FUNC
PyInit__scan(void)
{
    fill_plain();
    return PyModule_Create(&scan_module);
}
