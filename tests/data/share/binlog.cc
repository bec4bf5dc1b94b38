// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Ground truth for mycl-share: a global object spanning many lines (as
 * MariaDB's mysql_bin_log), written through its methods.  Its lock is taken
 * per request; bytes_written, deep inside, is incremented per request beside
 * mode, read per request; per-worker slots written by index; the name buffer
 * filled at start-up; the rest untouched.  Judged member by member: only the
 * lines its hot writes reach are flagged, each naming the member written
 * there, never the whole object as one counter.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define WORKERS 4

class Journal {
public:
	void open_log(const char *n)
	{
		snprintf(name, sizeof(name), "%s", n);
		mode = 1;
	}
	void append(long worker, unsigned long n)
	{
		pthread_mutex_lock(&lock);
		if (mode)
			bytes_written += n;
		pthread_mutex_unlock(&lock);
		slots[worker & 7] = n;
	}
	unsigned long total() const { return bytes_written; }

	pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* +0: its own line */
	char name[512];						/* start-up only */
	char reserved[200];					/* untouched */
	unsigned long bytes_written = 0;			/* a counter, hot */
	int mode = 0;						/* read per request */
	char more[300];						/* untouched */
	long slots[8];						/* one per worker, by index */
	char tail[256];						/* untouched */
};

Journal journal;

static void *worker(void *arg)
{
	long id = (long)arg;

	for (long i = 0; i < 1000000; i++)
		journal.append(id, (unsigned long)i & 15);
	return nullptr;
}

int main(int argc, char **argv)
{
	pthread_t t[WORKERS];

	journal.open_log(argc > 1 ? argv[1] : "journal");
	for (long i = 0; i < WORKERS; i++)
		pthread_create(&t[i], nullptr, worker, (void *)i);
	for (long i = 0; i < WORKERS; i++)
		pthread_join(t[i], nullptr);
	printf("%lu\n", journal.total());
	return 0;
}
