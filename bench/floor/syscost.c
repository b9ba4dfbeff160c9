/*
 * syscost.c: the cost of the system calls an HTTP/1.1 server makes per
 * keep-alive request, on this machine, for bench/syscalls.sh. Each kind
 * is timed over N calls on a TCP loopback connection (TCP_NODELAY, as
 * the servers set it) and printed as "kind ns_per_call":
 *
 *   getpid           the cheapest system call (syscall(SYS_getpid))
 *   read_eagain      read(2) on an empty non-blocking socket: EAGAIN
 *   peek_eagain      recvfrom(MSG_PEEK|MSG_DONTWAIT) on an empty socket
 *   write_small      write(2) of SIZE bytes to a connected socket (on
 *                    loopback the receiver's TCP input runs in it too)
 *   read_small       read(2) of those SIZE bytes on the other end
 *   epoll_empty      epoll_wait(timeout 0) with nothing ready
 *   epoll_ready      epoll_wait(timeout 0) returning one ready socket
 *
 * Usage: syscost [N [SIZE]]   defaults: 200000 calls, 115 bytes (brisk's
 * "Hello, World!" response)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* pair connects two non-blocking TCP loopback sockets: fd[0] to fd[1]. */
static void pair(int fd[2])
{
	int ln = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t n = sizeof a;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (ln < 0 || bind(ln, (struct sockaddr *)&a, sizeof a) < 0 || listen(ln, 1) < 0 ||
	    getsockname(ln, (struct sockaddr *)&a, &n) < 0)
		die("listen");
	fd[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(fd[0], (struct sockaddr *)&a, sizeof a) < 0)
		die("connect");
	fd[1] = accept4(ln, NULL, NULL, SOCK_NONBLOCK);
	if (fd[1] < 0)
		die("accept");
	close(ln);
	for (int i = 0; i < 2; i++)
		setsockopt(fd[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	int size = argc > 2 ? atoi(argv[2]) : 115;
	char buf[65536], msg[65536];
	int fd[2];
	double t, w = 0, r = 0;
	if (n <= 0 || size <= 0 || size > (int)sizeof msg) {
		fprintf(stderr, "usage: syscost [N [SIZE]]\n");
		return 2;
	}
	memset(msg, 'x', size);
	pair(fd);

	t = now();
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
	printf("getpid %.0f\n", (now() - t) / n);

	t = now();
	for (long i = 0; i < n; i++)
		if (read(fd[1], buf, sizeof buf) >= 0 || errno != EAGAIN)
			die("read_eagain");
	printf("read_eagain %.0f\n", (now() - t) / n);

	t = now();
	for (long i = 0; i < n; i++)
		if (recvfrom(fd[1], buf, 1, MSG_PEEK | MSG_DONTWAIT, NULL, NULL) >= 0 || errno != EAGAIN)
			die("peek_eagain");
	printf("peek_eagain %.0f\n", (now() - t) / n);

	for (long i = 0; i < n; i++) {
		double t0 = now();
		if (write(fd[0], msg, size) != size)
			die("write_small");
		double t1 = now();
		for (int got = 0; got < size;) {
			ssize_t k = read(fd[1], buf + got, sizeof buf - got);
			if (k <= 0)
				die("read_small");
			got += k;
		}
		w += t1 - t0;
		r += now() - t1;
	}
	printf("write_small %.0f\nread_small %.0f\n", w / n, r / n);

	int ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd[1]}, evs[8];
	if (epoll_ctl(ep, EPOLL_CTL_ADD, fd[1], &ev) < 0)
		die("epoll_ctl");
	t = now();
	for (long i = 0; i < n; i++)
		if (epoll_wait(ep, evs, 8, 0) != 0)
			die("epoll_empty");
	printf("epoll_empty %.0f\n", (now() - t) / n);
	if (write(fd[0], msg, 1) != 1)
		die("write");
	while (epoll_wait(ep, evs, 8, 0) != 1)
		;
	t = now();
	for (long i = 0; i < n; i++)
		if (epoll_wait(ep, evs, 8, 0) != 1)
			die("epoll_ready");
	printf("epoll_ready %.0f\n", (now() - t) / n);
	return 0;
}
