/* chat - a VolanoMark-like loopback TCP chat (seed 002). A server thread per
 * connection reads each message and fans it out to every connection in its room;
 * ROOMS rooms of USERS clients, each client one thread and one connection. Users
 * of a room take turns: the one after the author of the message just received
 * writes the next, so every client always reads and nothing can deadlock. Each
 * user writes MESSAGES messages. Reports the messages the server delivered per
 * second, %CPU split into user and system, and the swap traffic during the run
 * (libproc2 vmstat), the columns of seed 002's table. */
#include <arpa/inet.h>
#include <errno.h>
#include <libproc2/vmstat.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "size.h"
#include "wl.h"

#define MSG 128 /* bytes per message, like a chat line */

struct msg {
	uint32_t room, seq, author;
	char text[MSG - 12];
};

struct room {
	pthread_mutex_t lock;
	int *fds; /* the server's side of each connection */
	int n;
};

static long rooms = 10, users = 20, messages = 100;
static struct room *room_tab;
static uint64_t delivered;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static int full_io(int fd, void *buf, size_t len, int writing)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n =
		    writing ? write(fd, (char *)buf + done, len - done) : read(fd, (char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

struct conn {
	int fd, room;
};

static void *server_conn(void *arg)
{
	struct conn *c = arg;
	struct room *r = &room_tab[c->room];
	struct msg m;
	int i;

	while (full_io(c->fd, &m, sizeof(m), 0) == 0) {
		pthread_mutex_lock(&r->lock);
		for (i = 0; i < r->n; i++)
			full_io(r->fds[i], &m, sizeof(m), 1);
		pthread_mutex_unlock(&r->lock);
		pthread_mutex_lock(&count_lock);
		delivered += (uint64_t)r->n;
		pthread_mutex_unlock(&count_lock);
	}
	return NULL;
}

struct client {
	int fd, room, me, err;
};

static void *client(void *arg)
{
	struct client *c = arg;
	long total = users * messages, got = 0;
	struct msg m;

	memset(&m, 0, sizeof(m));
	if (c->me == 0) { /* the first user of each room opens the conversation */
		m.room = (uint32_t)c->room;
		m.seq = 0;
		m.author = 0;
		snprintf(m.text, sizeof(m.text), "room %d opens", c->room);
		if (full_io(c->fd, &m, sizeof(m), 1) < 0)
			c->err = 1;
	}
	while (!c->err && got < total) {
		if (full_io(c->fd, &m, sizeof(m), 0) < 0) {
			c->err = 1;
			break;
		}
		got++;
		if ((long)m.seq + 1 < total && (long)((m.seq + 1) % (uint32_t)users) == c->me) {
			m.seq++;
			m.author = (uint32_t)c->me;
			snprintf(m.text, sizeof(m.text), "user %d of room %d says %u", c->me, c->room, m.seq);
			if (full_io(c->fd, &m, sizeof(m), 1) < 0)
				c->err = 1;
		}
	}
	return NULL;
}

static void swap_counters(struct vmstat_info *vi, double *in, double *out)
{
	static enum vmstat_item items[] = { VMSTAT_PSWPIN, VMSTAT_PSWPOUT };
	struct vmstat_stack *st = vi ? procps_vmstat_select(vi, items, 2) : NULL;

	*in = st ? (double)st->head[0].result.ul_int : 0;
	*out = st ? (double)st->head[1].result.ul_int : 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	struct client *cl;
	struct conn *sc;
	pthread_t *ct, *st;
	struct rusage ru0, ru1;
	struct vmstat_info *vi = NULL;
	double t, user, sys, si0, so0, si1, so1;
	long i, n, failed = 0;
	int lfd, one = 1, opt;
	char why[256];

	while ((opt = getopt(argc, argv, wl_opts_chat)) != -1) {
		long *dst = opt == 'r' ? &rooms : opt == 'u' ? &users : &messages;
		if (opt == 'h') {
			printf("usage: chat [-r ROOMS] [-u USERS] [-m MESSAGES]\n"
			       "  -r ROOMS     rooms (default 10)\n  -u USERS     users per room (default 20)\n"
			       "  -m MESSAGES  messages each user writes (default 100)\n");
			return 0;
		}
		if (opt == '?' || parse_long(optarg, 1, opt == 'm' ? 1000000 : 1000, dst, why, sizeof(why)) < 0) {
			fprintf(stderr, "chat: -%c: %s\n", opt, opt == '?' ? "unknown option" : why);
			return 2;
		}
	}
	n = rooms * users;
	room_tab = calloc((size_t)rooms, sizeof(*room_tab));
	cl = calloc((size_t)n, sizeof(*cl));
	sc = calloc((size_t)n, sizeof(*sc));
	ct = calloc((size_t)n, sizeof(*ct));
	st = calloc((size_t)n, sizeof(*st));
	if (!room_tab || !cl || !sc || !ct || !st)
		return 1;
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(lfd, 1024) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&addr, &alen) < 0) {
		fprintf(stderr, "chat: cannot listen on 127.0.0.1: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < rooms; i++) {
		pthread_mutex_init(&room_tab[i].lock, NULL);
		room_tab[i].fds = calloc((size_t)users, sizeof(int));
	}
	/* every connection made before anyone talks */
	for (i = 0; i < n; i++) {
		int cfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), sfd;
		if (cfd < 0 || connect(cfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
		    (sfd = accept(lfd, NULL, NULL)) < 0) {
			fprintf(stderr, "chat: connection %ld: %s (raise the open files limit?)\n", i, strerror(errno));
			return 1;
		}
		setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		setsockopt(sfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		cl[i] = (struct client){ .fd = cfd, .room = (int)(i / users), .me = (int)(i % users) };
		sc[i] = (struct conn){ .fd = sfd, .room = (int)(i / users) };
		room_tab[i / users].fds[room_tab[i / users].n++] = sfd;
	}
	printf("chat: %ld rooms x %ld users, %ld messages each, %d-byte messages, on 127.0.0.1:%d\n", rooms, users,
	       messages, MSG, ntohs(addr.sin_port));
	fflush(stdout);
	if (procps_vmstat_new(&vi) < 0)
		vi = NULL;
	swap_counters(vi, &si0, &so0);
	getrusage(RUSAGE_SELF, &ru0);
	t = wl_now();
	for (i = 0; i < n; i++)
		pthread_create(&st[i], NULL, server_conn, &sc[i]);
	for (i = 0; i < n; i++)
		pthread_create(&ct[i], NULL, client, &cl[i]);
	for (i = 0; i < n; i++) {
		pthread_join(ct[i], NULL);
		failed += cl[i].err;
	}
	t = wl_now() - t;
	getrusage(RUSAGE_SELF, &ru1);
	swap_counters(vi, &si1, &so1);
	for (i = 0; i < n; i++)
		shutdown(cl[i].fd, SHUT_RDWR); /* the server threads see EOF */
	for (i = 0; i < n; i++)
		pthread_join(st[i], NULL);
	user = (double)(ru1.ru_utime.tv_sec - ru0.ru_utime.tv_sec) +
	       (double)(ru1.ru_utime.tv_usec - ru0.ru_utime.tv_usec) / 1e6;
	sys = (double)(ru1.ru_stime.tv_sec - ru0.ru_stime.tv_sec) +
	      (double)(ru1.ru_stime.tv_usec - ru0.ru_stime.tv_usec) / 1e6;
	printf("   msg/s  %%CPU  %%sys  %%user  swap in  swap out  swap io\n");
	printf("%8.0f %5.0f %5.0f %6.0f %8.0f %9.0f %8.0f\n", (double)delivered / t, 100 * (user + sys) / t,
	       100 * sys / (user + sys), 100 * user / (user + sys), si1 - si0, so1 - so0, si1 - si0 + so1 - so0);
	if (failed)
		printf("chat: FAIL: %ld connection(s) broke off\n", failed);
	printf("msg_s=%.1f\n", (double)delivered / t);
	printf("messages=%llu\n", (unsigned long long)delivered);
	printf("cpu_pct=%.2f\nsys_pct=%.2f\nuser_pct=%.2f\n", 100 * (user + sys) / t, 100 * sys / (user + sys),
	       100 * user / (user + sys));
	printf("swap_in=%.0f\nswap_out=%.0f\nswap_io=%.0f\n", si1 - si0, so1 - so0, si1 - si0 + so1 - so0);
	if (vi)
		procps_vmstat_unref(&vi);
	return failed ? 1 : 0;
}
