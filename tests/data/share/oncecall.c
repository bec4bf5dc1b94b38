/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ground truth for mycl-share: work called once from the request path,
 * behind a flag set once.  Each worker's request runs through:
 *  - "if (!cfg_loaded) { load_config(); cfg_loaded = 1; }": load_config
 *    writes cfg_port, cfg_depth and cfg_names[] (in a loop) once: not hot.
 *  - double-checked: "if (!index_built) { lock(&index_lock); if
 *    (!index_built) { build_index(); index_built = 1; } unlock(); }":
 *    build_index writes index_keys[] once, and index_lock is taken only
 *    until the index is built: neither is hot.
 *  - Not once, hot: "if (!dirty) { note_change(); dirty = 1; }" with a
 *    flusher thread storing dirty = 0 again: note_change's change_count
 *    is written again and again; refresh() writes refreshes both behind
 *    the flag reload_done (once) and on every request (hot: the other
 *    call makes it so).
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

_Alignas(64) int cfg_loaded;
int cfg_port;
int cfg_depth;
char cfg_names[8][16];
_Alignas(64) int index_built;
pthread_mutex_t index_lock = PTHREAD_MUTEX_INITIALIZER;
_Alignas(64) long index_keys[32];
_Alignas(64) int dirty;
long change_count;
_Alignas(64) int reload_done;
long refreshes;
_Alignas(64) long served;
static volatile int stop;

__attribute__((noinline)) static void load_config(void)
{
	cfg_port = 3306;
	cfg_depth = 4;
	for (int i = 0; i < 8; i++)
		snprintf(cfg_names[i], sizeof(cfg_names[i]), "n%d", i);
}

__attribute__((noinline)) static void build_index(void)
{
	for (int i = 0; i < 32; i++)
		index_keys[i] = (long)i * 31 + cfg_depth;
}

__attribute__((noinline)) static void note_change(void)
{
	change_count++;
}

__attribute__((noinline)) static void refresh(void)
{
	refreshes++;
}

__attribute__((noinline)) static long lookup(int key)
{
	if (!index_built) {
		pthread_mutex_lock(&index_lock);
		if (!index_built) {
			build_index();
			index_built = 1;
		}
		pthread_mutex_unlock(&index_lock);
	}
	return index_keys[key & 31];
}

__attribute__((noinline)) static long request(int key)
{
	long r;

	if (!cfg_loaded) {
		load_config();
		cfg_loaded = 1;
	}
	if (!reload_done) {
		refresh();
		reload_done = 1;
	}
	r = lookup(key) + cfg_port;
	if (!dirty) {
		note_change();
		dirty = 1;
	}
	if (key % 3 == 0)
		refresh();
	served++;
	return r;
}

static void *worker(void *arg)
{
	long sum = 0;

	for (int k = (int)(long)arg; !stop; k++)
		sum += request(k);
	return (void *)sum;
}

static void *flusher(void *arg)
{
	(void)arg;
	while (!stop) {
		usleep(1000);
		dirty = 0;
	}
	return NULL;
}

int main(void)
{
	pthread_t t[3];

	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	pthread_create(&t[2], NULL, flusher, NULL);
	usleep(100000);
	stop = 1;
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld %ld\n", change_count, refreshes, served);
	return 0;
}
