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
 *
 * Also here, for reader.parse, the head of a message line (_scan_head.h): what the reader's
 * pattern gives, without a match object per line. The JSON scanning itself is _scan_json.h.
 */
#define _GNU_SOURCE /* memmem */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_scan_json.h" /* Cur, Str, scan_string, scan_value, ... */

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
} Task;

static void
estimate_block(Task *t, const Block *b)
{
    if (!b->is_object)
        return; /* pi_chars skips what is not an object */
    if (b->type == T_TEXT) { /* counted alike for every role */
        if (b->text != V_STRING)
            t->unsure = 1;
        t->chars += b->text_units;
        return;
    }
    if (t->assistant) {
        switch (b->type) {
        case T_THINKING:
            if (b->thinking != V_STRING)
                t->unsure = 1;
            t->chars += b->thinking_units;
            return;
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
            return;
        case T_IMAGE:
            return; /* not counted for an assistant */
        default:
            t->unsure = 1;
            return;
        }
    }
    switch (b->type) {
    case T_IMAGE:
        t->chars += t->image_chars;
        return;
    case T_THINKING:
    case T_TOOL_CALL:
        return;
    default:
        t->unsure = 1;
        return;
    }
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

#include "_scan_head.h" /* message_head */

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
    Task t = {ESTIMATE, assistant, image_chars, 0, 0, NULL, Py_None};
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
    Task t = {TOOL_CALLS, 0, 0, 0, 0, calls, tools};
    int content_kind, leave;
    Py_ssize_t units = 0;
    PyObject *role = scan_line(line, n, &t, &content_kind, &units, &leave);
    if (!role) {
        Py_DECREF(calls);
        if (leave && !PyErr_Occurred())
            Py_RETURN_NONE;
        return NULL;
    }
    /* estimate.tool_call_blocks: a string or no content has no calls (and none were collected),
     * anything else but a list makes the answer None */
    if (content_kind == V_OTHER)
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
