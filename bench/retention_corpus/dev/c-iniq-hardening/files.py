# ruff: noqa: E501
"""The iniq repository (a small C99 INI parser library and its CLI) as the session finds it."""

MAKEFILE = '''# iniq: INI parser library (libini) and query tool (iniq)
VERSION   = 1.4.2
PREFIX   ?= /usr/local
CC       ?= gcc
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wformat=2 -Werror -Iinclude
LDFLAGS  ?=

LIB_OBJS = src/ini.o
CLI_OBJS = src/iniq.o

all: libini.a iniq

libini.a: $(LIB_OBJS)
	$(AR) rcs $@ $^

iniq: $(CLI_OBJS) libini.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) libini.a

src/%.o: src/%.c include/ini.h
	$(CC) $(CFLAGS) -c -o $@ $<

check: iniq
	sh tests/run.sh ./iniq

asan:
	$(MAKE) clean
	$(MAKE) CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" LDFLAGS="-fsanitize=address,undefined" all

check-asan: asan
	ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 sh tests/run.sh ./iniq

install: all
	install -d /usr/local/bin /usr/local/lib /usr/local/include
	install -m 755 iniq /usr/local/bin/iniq
	install -m 644 libini.a /usr/local/lib/libini.a
	install -m 644 include/ini.h /usr/local/include/ini.h

clean:
	rm -f src/*.o libini.a iniq

.PHONY: all check asan check-asan install clean
'''

INI_H = '''/* ini.h - a small INI parser (libini). Installed system-wide by the distro package:
 * keep this header ABI-compatible within a major version. */
#ifndef INI_H
#define INI_H

#include <stddef.h>

#define INI_VERSION_MAJOR 1
#define INI_VERSION_MINOR 4

#define INI_KEY_MAX   64   /* including the NUL */
#define INI_VALUE_MAX 256  /* including the NUL */

enum ini_status {
    INI_OK = 0,
    INI_ERR_IO = -1,
    INI_ERR_NOMEM = -2,
    INI_ERR_SYNTAX = -3,
    INI_ERR_NOTFOUND = -4
};

typedef struct ini_file ini_file;

/* Parse a file / a NUL-terminated string. On INI_ERR_SYNTAX, *err_line (if not NULL) is the
 * 1-based line number of the first bad line. */
int ini_parse_file(const char *path, ini_file **out, int *err_line);
int ini_parse_string(const char *text, ini_file **out, int *err_line);

/* Look up "section.key"; keys before the first section header live in section "". Returns
 * NULL when absent. The string is owned by the ini_file. */
const char *ini_get(const ini_file *ini, const char *section, const char *key);

/* Call fn for every key in file order; stops early when fn returns non-zero. */
typedef int (*ini_visit_fn)(const char *section, const char *key, const char *value, void *ctx);
int ini_foreach(const ini_file *ini, ini_visit_fn fn, void *ctx);

void ini_free(ini_file *ini);

#endif /* INI_H */
'''

INI_C = '''/* ini.c - libini implementation. */
#include "ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ini_key {
    char name[INI_KEY_MAX];
    char value[INI_VALUE_MAX];
};

struct ini_section {
    char *name;
    struct ini_key *keys; /* NULL-name terminated array, grown by doubling */
    size_t nkeys;
    size_t cap;
};

struct ini_file {
    struct ini_section *sections;
    size_t nsections;
    size_t cap;
};

static char *trim(char *s)
{
    char *end;
    while (isspace((unsigned char)*s))
        s++;
    end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    *end = '\\0';
    return s;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

static struct ini_section *add_section(ini_file *ini, const char *name)
{
    struct ini_section *sec;
    if (ini->nsections == ini->cap) {
        size_t cap = ini->cap ? ini->cap * 2 : 8;
        struct ini_section *grown = realloc(ini->sections, cap * sizeof *grown);
        if (!grown)
            return NULL;
        ini->sections = grown;
        ini->cap = cap;
    }
    sec = &ini->sections[ini->nsections];
    sec->name = xstrdup(name);
    if (!sec->name)
        return NULL;
    sec->keys = NULL; /* allocated on the first key */
    sec->nkeys = 0;
    sec->cap = 0;
    ini->nsections++;
    return sec;
}

static int add_key(struct ini_section *sec, const char *name, const char *value)
{
    struct ini_key *k;
    if (sec->nkeys + 1 >= sec->cap) {
        size_t cap = sec->cap ? sec->cap * 2 : 8;
        struct ini_key *grown = realloc(sec->keys, cap * sizeof *grown);
        if (!grown)
            return INI_ERR_NOMEM;
        sec->keys = grown;
        sec->cap = cap;
    }
    k = &sec->keys[sec->nkeys++];
    strncpy(k->name, name, INI_KEY_MAX);
    strncpy(k->value, value, INI_VALUE_MAX);
    sec->keys[sec->nkeys].name[0] = '\\0'; /* terminator */
    return INI_OK;
}

static int parse_lines(ini_file *ini, const char *text, int *err_line)
{
    char line[512];
    struct ini_section *sec = add_section(ini, "");
    const char *p = text;
    int lineno = 0;

    if (!sec)
        return INI_ERR_NOMEM;
    while (*p) {
        const char *nl = strchr(p, '\\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *s, *eq;

        lineno++;
        if (len >= sizeof line)
            len = sizeof line - 1; /* long lines are cut */
        memcpy(line, p, len);
        line[len] = '\\0';
        p = nl ? nl + 1 : p + strlen(p);

        s = trim(line);
        if (*s == '\\0' || *s == ';' || *s == '#')
            continue;
        if (*s == '[') {
            char *close = strchr(s, ']');
            if (!close) {
                if (err_line)
                    *err_line = lineno;
                return INI_ERR_SYNTAX;
            }
            *close = '\\0';
            sec = add_section(ini, trim(s + 1));
            if (!sec)
                return INI_ERR_NOMEM;
            continue;
        }
        eq = strchr(s, '=');
        if (!eq) {
            if (err_line)
                *err_line = lineno;
            return INI_ERR_SYNTAX;
        }
        *eq = '\\0';
        if (add_key(sec, trim(s), trim(eq + 1)) != INI_OK)
            return INI_ERR_NOMEM;
    }
    return INI_OK;
}

int ini_parse_string(const char *text, ini_file **out, int *err_line)
{
    ini_file *ini = calloc(1, sizeof *ini);
    int rc;
    if (!ini)
        return INI_ERR_NOMEM;
    rc = parse_lines(ini, text, err_line);
    if (rc != INI_OK) {
        ini_free(ini);
        return rc;
    }
    *out = ini;
    return INI_OK;
}

int ini_parse_file(const char *path, ini_file **out, int *err_line)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long size;
    int rc;

    if (!f)
        return INI_ERR_IO;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return INI_ERR_IO;
    }
    buf = malloc((size_t)size + 1);
    if (!buf) {
        fclose(f);
        return INI_ERR_NOMEM;
    }
    if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        fclose(f);
        return INI_ERR_IO;
    }
    buf[size] = '\\0';
    fclose(f);
    rc = ini_parse_string(buf, out, err_line);
    free(buf);
    return rc;
}

static const struct ini_section *find_section(const ini_file *ini, const char *name)
{
    size_t i;
    for (i = 0; i < ini->nsections; i++)
        if (strcmp(ini->sections[i].name, name) == 0)
            return &ini->sections[i];
    return NULL;
}

static const struct ini_key *ini_find_key(const struct ini_section *sec, const char *key)
{
    const struct ini_key *k;
    for (k = sec->keys; k->name[0] != '\\0'; k++)
        if (strcmp(k->name, key) == 0)
            return k;
    return NULL;
}

const char *ini_get(const ini_file *ini, const char *section, const char *key)
{
    const struct ini_section *sec = find_section(ini, section ? section : "");
    const struct ini_key *k;
    if (!sec)
        return NULL;
    k = ini_find_key(sec, key);
    return k ? k->value : NULL;
}

int ini_foreach(const ini_file *ini, ini_visit_fn fn, void *ctx)
{
    size_t i, j;
    for (i = 0; i < ini->nsections; i++)
        for (j = 0; j < ini->sections[i].nkeys; j++) {
            const struct ini_key *k = &ini->sections[i].keys[j];
            int rc = fn(ini->sections[i].name, k->name, k->value, ctx);
            if (rc)
                return rc;
        }
    return 0;
}

void ini_free(ini_file *ini)
{
    size_t i;
    if (!ini)
        return;
    for (i = 0; i < ini->nsections; i++)
        free(ini->sections[i].keys);
    free(ini->sections);
    free(ini);
}
'''

INIQ_C = '''/* iniq - query INI files from the shell.
 *
 *   iniq FILE section.key     print one value (exit 1 if absent)
 *   iniq -l FILE              list every section.key=value
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ini.h"

#define EXIT_NOTFOUND 1
#define EXIT_USAGE 2
#define EXIT_PARSE 4

static int print_entry(const char *section, const char *key, const char *value, void *ctx)
{
    char full[INI_KEY_MAX * 2];
    (void)ctx;
    if (*section)
        snprintf(full, sizeof full, "%s.%s", section, key);
    else
        snprintf(full, sizeof full, "%s", key);
    printf("%s=%s\\n", full, value);
    return 0;
}

static void usage(FILE *out)
{
    fputs("usage: iniq FILE section.key\\n       iniq -l FILE\\n", out);
}

static int split_query(const char *query, char *section, size_t secsz, const char **key)
{
    const char *dot = strrchr(query, '.');
    size_t n;
    if (!dot) {
        section[0] = '\\0';
        *key = query;
        return 0;
    }
    n = (size_t)(dot - query);
    if (n >= secsz)
        return -1;
    memcpy(section, query, n);
    section[n] = '\\0';
    *key = dot + 1;
    return 0;
}

int main(int argc, char **argv)
{
    ini_file *ini = NULL;
    int list = 0, err_line = 0, rc;
    const char *path, *query = NULL, *key, *value;
    char section[INI_KEY_MAX];

    if (argc == 3 && strcmp(argv[1], "-l") == 0) {
        list = 1;
        path = argv[2];
    } else if (argc == 3) {
        path = argv[1];
        query = argv[2];
    } else {
        usage(stderr);
        return EXIT_USAGE;
    }

    rc = ini_parse_file(path, &ini, &err_line);
    if (rc == INI_ERR_SYNTAX) {
        fprintf(stderr, "iniq: %s:%d: syntax error\\n", path, err_line);
        return EXIT_PARSE;
    }
    if (rc != INI_OK) {
        fprintf(stderr, "iniq: %s: cannot read (%d)\\n", path, rc);
        return EXIT_PARSE;
    }

    if (list) {
        ini_foreach(ini, print_entry, NULL);
        ini_free(ini);
        return 0;
    }

    if (split_query(query, section, sizeof section, &key) != 0) {
        fprintf(stderr, "iniq: section name too long\\n");
        ini_free(ini);
        return EXIT_USAGE;
    }
    value = ini_get(ini, section, key);
    if (value)
        puts(value);
    ini_free(ini);
    return value ? 0 : EXIT_NOTFOUND;
}
'''
