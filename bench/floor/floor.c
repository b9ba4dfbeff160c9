/*
 * floor.c: the C floor of bench/profiles.sh. One thread, one epoll loop
 * (level-triggered, non-blocking sockets), answering every request head
 * with the same fixed response bytes: no parsing beyond finding the end
 * of each head ("\r\n\r\n"), no body, no routing. A head that asks for
 * "Connection: close" is answered with the same bytes plus that field,
 * and the connection is closed after the write. Pipelined heads that
 * arrive in one read are answered with one write. It is the lower bound
 * of what a server pays per request in the kernel and the loop.
 *
 * Usage: floor PORT BODY   (listens on 127.0.0.1:PORT)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAXFD 65536
#define RBUF 16384
#ifndef SPIN
#define SPIN 64
#endif

struct conn {
	int state; /* bytes of "\r\n\r\n" matched at the end of the last read */
	int close; /* the current head asked for Connection: close */
};

static struct conn conns[MAXFD];
static char resp[512], respclose[512], out[RBUF * 4];
static int nresp, nrespclose;

static int headclose(const char *p, const char *end)
{
	/* "Connection: close" or "Connection:close", field name any case */
	static const char f[] = "\nconnection:";
	for (; p + sizeof f - 1 < end; p++) {
		if (strncasecmp(p, f, sizeof f - 1) != 0)
			continue;
		p += sizeof f - 1;
		while (p < end && *p == ' ')
			p++;
		return end - p >= 5 && strncasecmp(p, "close", 5) == 0;
	}
	return 0;
}

static void serve(int ep, int fd)
{
	char buf[RBUF];
	struct conn *c = &conns[fd];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0)
			goto drop;
		size_t w = 0;
		const char *head = buf;
		int closing = 0;
		for (ssize_t i = 0; i < n; i++) {
			static const char crlf2[] = "\r\n\r\n";
			if (buf[i] == crlf2[c->state])
				c->state++;
			else
				c->state = buf[i] == '\r';
			if (c->state < 4)
				continue;
			c->state = 0;
			c->close |= headclose(head, buf + i + 1);
			head = buf + i + 1;
			if (c->close) {
				memcpy(out + w, respclose, nrespclose);
				w += nrespclose;
				closing = 1;
				break;
			}
			if (w + nresp > sizeof out)
				break; /* more than a read can hold: not in these profiles */
			memcpy(out + w, resp, nresp);
			w += nresp;
		}
		if (w > 0 && write(fd, out, w) != (ssize_t)w)
			goto drop;
		if (closing)
			goto drop;
		if (n < (ssize_t)sizeof buf)
			return;
	}
drop:
	epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
	conns[fd] = (struct conn){0};
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: floor PORT BODY\n");
		return 2;
	}
	const char *body = argv[2];
	nresp = snprintf(resp, sizeof resp,
		"HTTP/1.1 200 OK\r\nServer: floor\r\nDate: Wed, 02 Dec 2026 00:00:00 GMT\r\n"
		"Content-Type: text/plain\r\nContent-Length: %zu\r\n\r\n%s", strlen(body), body);
	nrespclose = snprintf(respclose, sizeof respclose,
		"HTTP/1.1 200 OK\r\nServer: floor\r\nDate: Wed, 02 Dec 2026 00:00:00 GMT\r\n"
		"Content-Type: text/plain\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
		strlen(body), body);
	int ln = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0), one = 1;
	setsockopt(ln, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(atoi(argv[1]))};
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(ln, (struct sockaddr *)&a, sizeof a) < 0 || listen(ln, 4096) < 0) {
		perror("listen");
		return 1;
	}
	int ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = ln}, evs[256];
	epoll_ctl(ep, EPOLL_CTL_ADD, ln, &ev);
	for (int idle = 0;;) {
		/*
		 * Poll without blocking for up to SPIN empty rounds before
		 * blocking, as Go's scheduler spins before it parks a thread:
		 * a thread that blocks at once lets a virtual CPU halt, and the
		 * wake-up then costs more than the request.
		 */
		int n = epoll_wait(ep, evs, 256, idle < SPIN ? 0 : -1);
		idle = n > 0 ? 0 : idle + 1;
		for (int i = 0; i < n; i++) {
			int fd = evs[i].data.fd;
			if (fd != ln) {
				serve(ep, fd);
				continue;
			}
			for (;;) {
				int cfd = accept4(ln, NULL, NULL, SOCK_NONBLOCK);
				if (cfd < 0)
					break;
				if (cfd >= MAXFD) {
					close(cfd);
					continue;
				}
				setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
				ev = (struct epoll_event){.events = EPOLLIN, .data.fd = cfd};
				epoll_ctl(ep, EPOLL_CTL_ADD, cfd, &ev);
			}
		}
	}
}
