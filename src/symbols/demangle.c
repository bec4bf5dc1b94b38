/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * C++ demangling through the C++ runtime's __cxa_demangle, in process (Rust's
 * two schemes first: demangle_rust.c).
 * Names are shown as perf shows them by default: without the parameter
 * list and without a template function's return type
 * ("PolicyMutex<TTASEventMutex<GenericPolicy> >::enter").
 */
#include <stdlib.h>
#include <string.h>
#include "symtab.h"

char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

static int depth_delta(char c)
{
	switch (c) {
	case '(': case '<': case '[': case '{':
		return 1;
	case ')': case '>': case ']': case '}':
		return -1;
	default:
		return 0;
	}
}

/* Cuts "(params) const" off S, and a leading "rettype " at top level. */
void demangle_strip_signature(char *s)
{
	size_t n = strlen(s);
	int depth = 0;
	char *cut = NULL, *space = NULL;

	/* Trailing qualifiers after the parameter list. */
	while (n && s[n - 1] != ')') {
		if (n > 1 && (s[n - 1] == '&' || s[n - 1] == ' ' || (s[n - 1] >= 'a' && s[n - 1] <= 'z')))
			n--;
		else
			break;
	}
	if (!n || s[n - 1] != ')')
		return;
	/* Find the '(' that opens the final parameter list. */
	for (size_t i = n; i-- > 0;) {
		depth -= depth_delta(s[i]);
		if (depth == 0) {
			cut = s + i;
			break;
		}
	}
	if (!cut || cut == s)
		return;
	/* "operator()" is a name, not a parameter list. */
	if (cut - s >= 8 && !strncmp(cut - 8, "operator", 8))
		return;
	*cut = '\0';
	/*
	 * A template function's return type ("bool std::operator< <char>"): the
	 * last top-level space before the name's "operator" (whose own spaces,
	 * "operator new", "operator< <", belong to the name) or, without one,
	 * in the whole name.
	 */
	depth = 0;
	for (char *p = s; *p; p++) {
		if (depth == 0 && !strncmp(p, "operator", 8) && (p == s || p[-1] == ':' || p[-1] == ' '))
			break;
		depth += depth_delta(*p);
		if (*p == ' ' && depth == 0 && p > s)
			space = p;
	}
	if (space)
		memmove(s, space + 1, strlen(space + 1) + 1);
}

/*
 * A variable's name with a suffix the compiler added ("_ZL8prod_pos.0":
 * clang splits a static std::atomic into its parts; gcc's ".lto_priv.0"),
 * which the runtime's demangler refuses (clone suffixes are a function's):
 * the name before it demangled, the suffix kept ("prod_pos.0"), or NULL.
 */
static char *demangle_suffixed(const char *mangled)
{
	const char *dot = strchr(mangled + 2, '.');
	int status = 0;
	char *head, *d, *out;
	size_t n;

	if (!dot)
		return NULL;
	head = strndup(mangled, (size_t)(dot - mangled));
	d = head ? __cxa_demangle(head, NULL, NULL, &status) : NULL;
	free(head);
	if (!d || status != 0) {
		free(d);
		return NULL;
	}
	n = strlen(d);
	out = malloc(n + strlen(dot) + 1);
	if (out) {
		memcpy(out, d, n);
		strcpy(out + n, dot);
	}
	free(d);
	return out;
}

static char *demangle(const char *mangled, bool clones)
{
	int status = 0;
	char *d = demangle_rust(mangled);
	char *c;

	if (d)
		return d;
	d = __cxa_demangle(mangled, NULL, NULL, &status);

	if (!d || status != 0) {
		free(d);
		return demangle_suffixed(mangled);
	}
	/*
	 * A clone's suffixes (" [clone .isra.0]", " [clone .cold]"): perf's
	 * demangler reads none without the parameters (libiberty parses clone
	 * suffixes only with DMGL_PARAMS), so the name is the function's.
	 */
	while (!clones && (c = strstr(d, " [clone ")) && d[strlen(d) - 1] == ']')
		*c = '\0';
	demangle_strip_signature(d);
	return d;
}

char *demangle_name(const char *mangled)
{
	return demangle(mangled, true);
}

char *demangle_name_as_perf(const char *mangled)
{
	return demangle(mangled, false);
}
