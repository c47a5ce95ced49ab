/* The head of a pi message line, read as reader._MESSAGE_LINE reads it. Included once, by
 * _scan.c, after line_arg. */
#ifndef CUTPOINT_SCAN_HEAD_H
#define CUTPOINT_SCAN_HEAD_H

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

#endif
