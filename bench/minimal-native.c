/*
 * The benches' native minimal target (bench/minimal-native.ts compiles and starts it): the same server as
 * minimal-http.ts (each request framed by its head and Content-Length, whatever the reads; a canned 200 for
 * each; the answers to one read in one write), in C on one thread with epoll.
 *
 * Why: on a 2-core machine the server shares the cores with the driver, so what two driver threads can add
 * is what the server leaves. The node:net server costs ~10 µs of CPU per request, of which its JavaScript
 * and libuv are a third; this one costs only the system calls a request needs (a read and a write), so
 * what a bench drives against it is the driver's limit, not the server's.
 *
 * It listens on 127.0.0.1, port 0, prints the port on a line, and exits when its standard input closes
 * (its parent gone). With an argument MS it answers each read's requests MS milliseconds after the read,
 * on a timerfd (µs precision): a target of known latency for comparing two runs' percentiles, where the
 * node:net server's timers (whole milliseconds of its loop's clock) spread one delay over a millisecond.
 * A connection whose bytes it cannot frame (Transfer-Encoding, a bad or too long Content-Length, a head
 * past MAX_HEAD) is closed, as minimal-http.ts closes it.
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
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static const char ANSWER[] = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}";
#define ANSWER_LEN (sizeof(ANSWER) - 1)
/* A head this long without its blank line, or a body this long, is not a request this server serves. */
#define MAX_HEAD (32 * 1024)
#define MAX_BODY (64 * 1024)
#define BUF (MAX_HEAD + MAX_BODY + 4)
/* Answers written in one write at most (a read of 1 KiB requests holds far fewer). */
#define BATCH 256

struct conn {
  int fd;
  /* Next in the list of connections to free once this turn's events are handled. */
  struct conn *next_dead;
  /* Answers queued for later (the delayed mode): a closed connection is freed once none is left. */
  int queued;
  int closed;
  size_t len;
  /* Bytes of answers not yet written (the socket was full): reading waits until they are. */
  size_t owed;
  /* Where in an answer the next byte to write is (a short write may end mid-answer). */
  size_t at;
  /* Registered for EPOLLOUT (answers owed) rather than EPOLLIN. */
  int waiting_to_write;
  char buf[BUF];
};

/* The value of a header in head[0..len), case-insensitive name; NULL when absent. */
static const char *header(const char *head, size_t len, const char *name) {
  size_t n = strlen(name);
  for (const char *p = head; p < head + len; p++) {
    p = memchr(p, '\n', head + len - p);
    if (!p) return NULL;
    if ((size_t)(head + len - p - 1) > n && strncasecmp(p + 1, name, n) == 0 && p[1 + n] == ':') return p + 2 + n;
  }
  return NULL;
}

/* Complete requests in c->buf (the unfinished rest kept); -1 when the bytes are not framed here. */
static int frame(struct conn *c) {
  size_t pos = 0;
  int count = 0;
  for (;;) {
    const char *end = memmem(c->buf + pos, c->len - pos, "\r\n\r\n", 4);
    if (!end) {
      if (c->len - pos > MAX_HEAD) return -1;
      break;
    }
    size_t head = (size_t)(end - (c->buf + pos));
    if (header(c->buf + pos, head, "transfer-encoding")) return -1;
    long length = 0;
    const char *value = header(c->buf + pos, head, "content-length");
    if (value) {
      while (*value == ' ' || *value == '\t') value++;
      char *after;
      errno = 0;
      length = strtol(value, &after, 10);
      if (errno || after == value || length < 0 || length > MAX_BODY) return -1;
    }
    size_t next = pos + head + 4 + (size_t)length;
    if (next > c->len) break;
    pos = next;
    count++;
  }
  memmove(c->buf, c->buf + pos, c->len - pos);
  c->len -= pos;
  return count;
}

static char answers[ANSWER_LEN * BATCH];

/* Freed after the turn: a later event of the same epoll_wait may still name a connection dropped earlier in it. */
static struct conn *dead;

static void bury(struct conn *c) {
  c->next_dead = dead;
  dead = c;
}

static void drop(int ep, struct conn *c) {
  if (c->closed) return;
  epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  c->closed = 1;
  if (c->queued == 0) bury(c);
}

/* The delayed mode's queue: one entry per read that completed requests, due in arrival order (one delay for
 * all), so a ring is enough; a full ring answers at once rather than lose an answer. */
#define RING 65536
static struct pending {
  struct conn *c;
  int count;
  long long due;
} ring[RING];
static size_t head, tail;

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void arm(int tfd) {
  struct itimerspec when = {0};
  if (head != tail) {
    long long due = ring[head % RING].due;
    when.it_value.tv_sec = due / 1000000000LL;
    when.it_value.tv_nsec = due % 1000000000LL;
  }
  timerfd_settime(tfd, TFD_TIMER_ABSTIME, &when, NULL);
}

/* Writes what is owed; 0 when all of it is out, 1 when the socket is full, -1 when the connection failed. */
static int pay(struct conn *c) {
  while (c->owed > 0) {
    size_t n = sizeof answers - c->at;
    if (c->owed < n) n = c->owed;
    ssize_t w = write(c->fd, answers + c->at, n);
    if (w < 0) return errno == EAGAIN || errno == EWOULDBLOCK ? 1 : -1;
    c->owed -= (size_t)w;
    c->at = (c->at + (size_t)w) % ANSWER_LEN;
  }
  return 0;
}

/* Waits for c to be readable (1) or writable (0): reading waits while answers are owed. */
static void watch(int ep, struct conn *c, int readable) {
  if (c->waiting_to_write == !readable) return;
  c->waiting_to_write = !readable;
  struct epoll_event e = {.events = readable ? EPOLLIN : EPOLLOUT, .data.ptr = c};
  epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &e);
}

/* Answers k requests on c now: what the socket does not take is owed, and reading waits for it. */
static void answer(int ep, struct conn *c, int k) {
  c->owed += (size_t)k * ANSWER_LEN;
  int paid = pay(c);
  if (paid < 0) drop(ep, c);
  else watch(ep, c, paid == 0);
}

int main(int argc, char **argv) {
  long long delay_ns = argc > 1 ? (long long)(atof(argv[1]) * 1e6) : 0;
  for (int i = 0; i < BATCH; i++) memcpy(answers + i * ANSWER_LEN, ANSWER, ANSWER_LEN);
  int one = 1;
  int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK), .sin_port = 0};
  socklen_t addr_len = sizeof addr;
  if (ls < 0 || bind(ls, (struct sockaddr *)&addr, sizeof addr) || listen(ls, 1024) || getsockname(ls, (struct sockaddr *)&addr, &addr_len)) {
    perror("minimal-native: listen");
    return 1;
  }
  int ep = epoll_create1(0);
  /* data.ptr: NULL for the listener, &ep for standard input, else the connection. */
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
  epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
  ev.data.ptr = &ep;
  epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev);
  int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
  ev.data.ptr = &tfd;
  epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev);
  printf("%d\n", ntohs(addr.sin_port));
  fflush(stdout);
  struct epoll_event events[256];
  for (;;) {
    int n = epoll_wait(ep, events, 256, -1);
    if (n < 0 && errno != EINTR) return 1;
    for (; dead; ) {
      struct conn *c = dead;
      dead = c->next_dead;
      free(c);
    }
    for (int i = 0; i < n; i++) {
      void *ptr = events[i].data.ptr;
      if (ptr == &ep) {
        char sink[256];
        if (read(0, sink, sizeof sink) <= 0) return 0;
        continue;
      }
      if (ptr == &tfd) {
        unsigned long long fired;
        if (read(tfd, &fired, sizeof fired) < 0 && errno != EAGAIN) return 1;
        long long now = now_ns();
        for (; head != tail && ring[head % RING].due <= now; head++) {
          struct pending *p = &ring[head % RING];
          p->c->queued--;
          if (p->c->closed) {
            if (p->c->queued == 0) bury(p->c);
          } else answer(ep, p->c, p->count);
        }
        arm(tfd);
        continue;
      }
      if (!ptr) {
        int fd;
        while ((fd = accept4(ls, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          struct conn *c = calloc(1, sizeof *c);
          if (!c) {
            close(fd);
            continue;
          }
          setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          c->fd = fd;
          struct epoll_event e = {.events = EPOLLIN, .data.ptr = c};
          epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
        }
        continue;
      }
      struct conn *c = ptr;
      if (c->closed) continue;
      if (c->waiting_to_write) {
        /* Writable again: pay, then read again. */
        int paid = pay(c);
        if (paid < 0) drop(ep, c);
        else if (paid == 0) watch(ep, c, 1);
        continue;
      }
      ssize_t r = read(c->fd, c->buf + c->len, BUF - c->len);
      if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
      if (r <= 0) {
        drop(ep, c);
        continue;
      }
      c->len += (size_t)r;
      int k = frame(c);
      if (k < 0) {
        drop(ep, c);
        continue;
      }
      if (k == 0) continue;
      if (delay_ns == 0 || tail - head >= RING) {
        answer(ep, c, k);
        continue;
      }
      ring[tail % RING] = (struct pending){.c = c, .count = k, .due = now_ns() + delay_ns};
      c->queued++;
      if (tail++ == head) arm(tfd);
    }
  }
}
