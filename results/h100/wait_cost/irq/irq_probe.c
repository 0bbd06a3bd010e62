// Which interrupts reach a CPU that spins? Pins itself to CPU argv[1], snapshots /proc/interrupts,
// spins argv[2] seconds reading CLOCK_MONOTONIC, counts gaps over 3 us between two reads (the
// thread was off its CPU), snapshots again and prints every interrupt line whose count on that CPU
// moved, with the rate per second.
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LINES 512
static char names[MAX_LINES][256];
static long long counts[MAX_LINES];

static int snapshot(int cpu, long long* out, int record_names) {
  FILE* f = fopen("/proc/interrupts", "r");
  if (!f) {
    perror("/proc/interrupts");
    exit(1);
  }
  char line[8192];
  int n = 0;
  if (!fgets(line, sizeof line, f)) exit(1);  // the CPU header
  while (fgets(line, sizeof line, f) && n < MAX_LINES) {
    char* p = line;
    while (*p == ' ') ++p;
    char* colon = strchr(p, ':');
    if (!colon) continue;
    char* q = colon + 1;
    long long v = 0;
    for (int c = 0; c <= cpu; ++c) v = strtoll(q, &q, 10);
    out[n] = v;
    if (record_names) {
      snprintf(names[n], sizeof names[n], "%.200s", p);
      names[n][strcspn(names[n], "\n")] = 0;
    }
    ++n;
  }
  fclose(f);
  return n;
}

// The CPU's steal time from /proc/stat, in USER_HZ ticks: time the hypervisor ran something else.
static long long steal_ticks(int cpu) {
  FILE* f = fopen("/proc/stat", "r");
  if (!f) return -1;
  char line[1024], want[32];
  snprintf(want, sizeof want, "cpu%d ", cpu);
  long long v[8] = {0};
  while (fgets(line, sizeof line, f))
    if (strncmp(line, want, strlen(want)) == 0) {
      sscanf(line + strlen(want), "%lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1], &v[2],
             &v[3], &v[4], &v[5], &v[6], &v[7]);
      break;
    }
  fclose(f);
  return v[7];
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: irq_probe CPU SECONDS\n");
    return 2;
  }
  int cpu = atoi(argv[1]);
  double seconds = atof(argv[2]);
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    perror("sched_setaffinity");
    return 1;
  }
  static long long after[MAX_LINES];
  int n = snapshot(cpu, counts, 1);
  long long steal0 = steal_ticks(cpu);
  double start = now_us(), last = start, end = start + seconds * 1e6, longest = 0;
  long gaps = 0;
  double lost = 0;
  while (last < end) {
    double t = now_us();
    double gap = t - last;
    if (gap > 3) {
      ++gaps;
      lost += gap;
    }
    if (gap > longest) longest = gap;
    last = t;
  }
  int m = snapshot(cpu, after, 0);
  long long steal1 = steal_ticks(cpu);
  if (m != n) fprintf(stderr, "interrupt lines changed: %d then %d\n", n, m);
  printf("cpu %d, %.1f s spun: %ld gaps over 3 us (%.0f a second), longest %.1f us\n", cpu, seconds,
         gaps, gaps / seconds, longest);
  printf("  time in those gaps: %.0f us (%.2f%%), %.1f us a gap on average\n", lost,
         100 * lost / (seconds * 1e6), gaps ? lost / gaps : 0);
  printf("  steal: %lld ticks of 10 ms\n", steal1 - steal0);
  for (int i = 0; i < n && i < m; ++i)
    if (after[i] != counts[i])
      printf("  %8lld (%7.1f/s)  %.120s\n", after[i] - counts[i], (after[i] - counts[i]) / seconds,
             names[i]);
  return 0;
}
