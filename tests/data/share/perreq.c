/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: repetition without a loop of its own.
 * - A thread per request: main's accept loop starts handle_conn, a one-shot
 *   thread, for every client: requests_handled, incremented once by each,
 *   is a hot shared counter, beside the read-mostly trace_on.
 * - A fixed pool started by a counted loop before any client: each worker
 *   counts itself in workers_started once (not hot), then loops on its own.
 * - Recursion: a parser's item and list call each other (tokens_seen), a
 *   tree walk calls itself (nodes_walked): hot on the request path.  In a
 *   pool worker, outside its loop, recursion is the only repetition: a
 *   leaf count calling itself (leaves_counted), an even/odd pair calling
 *   each other (parity_steps).  The same shape run only at start-up
 *   (config_nodes) or once after the threads stop (freed_nodes) is not hot.
 */
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define WORKERS 3

struct node { struct node *l, *r; int v; };

_Alignas(64) unsigned long requests_handled;
int trace_on;
_Alignas(64) long workers_started;
_Alignas(64) unsigned long tokens_seen;
_Alignas(64) unsigned long nodes_walked;
_Alignas(64) long config_nodes;
_Alignas(64) long freed_nodes;
_Alignas(64) long jobs_done;
_Alignas(64) long leaves_counted;
_Alignas(64) long parity_steps;
static struct node *tree;
static int depth_limit = 32;

static int parse_list(const char *s, int d);

static int parse_item(const char *s, int d)
{
	tokens_seen++;
	if (*s == '(' && d < depth_limit)
		return parse_list(s + 1, d + 1);
	return 1;
}

static int parse_list(const char *s, int d)
{
	int n = 0;

	if (*s && *s != ')')
		n += parse_item(s, d);
	return n;
}

__attribute__((noinline)) static int walk(const struct node *n)
{
	if (!n)
		return 0;
	nodes_walked++;
	return n->v + walk(n->l) + walk(n->r);
}

__attribute__((noinline)) static struct node *build(int d)
{
	struct node *n;

	if (!d)
		return NULL;
	n = calloc(1, sizeof(*n));
	config_nodes++;
	n->l = build(d - 1);
	n->r = build(d - 1);
	n->v = d;
	return n;
}

__attribute__((noinline)) static void release(struct node *n)
{
	if (!n)
		return;
	release(n->l);
	release(n->r);
	freed_nodes++;
	free(n);
}

__attribute__((noinline)) static long count_leaves(const struct node *n)
{
	if (!n)
		return 0;
	if (!n->l && !n->r) {
		leaves_counted++;
		return 1;
	}
	return count_leaves(n->l) + count_leaves(n->r);
}

static int is_odd(unsigned n);

__attribute__((noinline)) static int is_even(unsigned n)
{
	parity_steps++;
	return n == 0 ? 1 : is_odd(n - 1);
}

__attribute__((noinline)) static int is_odd(unsigned n)
{
	parity_steps++;
	return n == 0 ? 0 : is_even(n - 1);
}

static void *handle_conn(void *arg)
{
	int fd = (int)(long)arg;
	char buf[256];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);

	if (n > 0) {
		buf[n] = 0;
		__atomic_add_fetch(&requests_handled, 1, __ATOMIC_RELAXED);
		if (trace_on)
			fprintf(stderr, "%d: %s\n", fd, buf);
		dprintf(fd, "%d %d\n", parse_list(buf, 0), walk(tree));
	}
	close(fd);
	return NULL;
}

static void *worker(void *arg)
{
	long n = (long)arg;

	__atomic_add_fetch(&workers_started, 1, __ATOMIC_RELAXED);
	n += count_leaves(tree) + is_even((unsigned)n);
	for (long i = 0; i < n; i++)
		__atomic_add_fetch(&jobs_done, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(7070) };
	pthread_t pool[WORKERS];
	int s;

	trace_on = argc > 2;
	tree = build(argc > 1 ? atoi(argv[1]) : 8);
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&pool[i], NULL, worker, (void *)1000L);
	s = socket(AF_INET, SOCK_STREAM, 0);
	bind(s, (struct sockaddr *)&a, sizeof(a));
	listen(s, 64);
	for (;;) {
		int c = accept(s, NULL, NULL);
		pthread_t t;
		pthread_attr_t at;

		if (c < 0)
			break;
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		pthread_create(&t, &at, handle_conn, (void *)(long)c);
	}
	for (int i = 0; i < WORKERS; i++)
		pthread_join(pool[i], NULL);
	release(tree);
	return 0;
}
