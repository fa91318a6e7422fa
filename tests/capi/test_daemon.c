/* See test_daemon.h. */
#define _GNU_SOURCE
#include "test_daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double test_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0 && errno == EINTR) {
  }
}

static void print_log(const test_daemon* d) {
  FILE* f = fopen(d->log_path, "r");
  char line[512];
  if (f == NULL) return;
  while (fgets(line, sizeof line, f) != NULL) fprintf(stderr, "  | %s", line);
  fclose(f);
}

/* The port of "serving gRPC on port N" in the log, or 0. */
static int served_port(const test_daemon* d) {
  FILE* f = fopen(d->log_path, "r");
  char line[512];
  int port = 0;
  if (f == NULL) return 0;
  while (port == 0 && fgets(line, sizeof line, f) != NULL) {
    const char* at = strstr(line, "serving gRPC on port ");
    if (at != NULL) port = atoi(at + strlen("serving gRPC on port "));
  }
  fclose(f);
  return port;
}

int test_daemon_start(test_daemon* d, const char* binary, int port,
                      const char* extra_flag) {
  char listen[64];
  int fd;
  pid_t parent = getpid();
  double deadline;
  if (d->log_path[0] != '\0') unlink(d->log_path); /* a killed one's */
  strcpy(d->log_path, "/tmp/factord-ctest-XXXXXX");
  fd = mkstemp(d->log_path);
  if (fd < 0) {
    perror("mkstemp");
    return -1;
  }
  snprintf(listen, sizeof listen, "--listen=127.0.0.1:%d", port);
  d->pid = fork();
  if (d->pid < 0) {
    perror("fork");
    close(fd);
    return -1;
  }
  if (d->pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    execl(binary, "factord", listen, "--metrics_listen=", "--threads=1",
          "--workers=2", "--shutdown_grace=2s",
          extra_flag != NULL ? extra_flag : (char*)NULL, (char*)NULL);
    perror("execl");
    _exit(127);
  }
  close(fd);
  deadline = test_now() + 20.0;
  while (test_now() < deadline) {
    int status;
    d->port = served_port(d);
    if (d->port > 0) {
      snprintf(d->address, sizeof d->address, "127.0.0.1:%d", d->port);
      return 0;
    }
    if (waitpid(d->pid, &status, WNOHANG) == d->pid) {
      fprintf(stderr, "factord exited before serving:\n");
      print_log(d);
      d->pid = 0;
      return -1;
    }
    sleep_ms(20);
  }
  fprintf(stderr, "factord did not serve within 20 s:\n");
  print_log(d);
  test_daemon_kill(d);
  return -1;
}

void test_daemon_kill(test_daemon* d) {
  if (d->pid > 0) {
    kill(d->pid, SIGKILL);
    waitpid(d->pid, NULL, 0);
    d->pid = 0;
  }
}

void test_daemon_stop(test_daemon* d) {
  if (d->pid > 0) {
    kill(d->pid, SIGTERM);
    waitpid(d->pid, NULL, 0);
    d->pid = 0;
  }
  if (d->log_path[0] != '\0') unlink(d->log_path);
  d->log_path[0] = '\0';
}
