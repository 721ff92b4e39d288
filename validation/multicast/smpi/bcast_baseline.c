/* bcast_baseline.c — MPI_Bcast baseline for paper 002's multicast experiment, run on SimGrid's SMPI.
 *
 * Paper 002 (Nagamine, Fukuma, Mori) compares a dynamic multicast with MPI_Bcast: W = 256 worker
 * ranks, group sizes r = 8..256 whose members are the worker ranks (W/r)*i, i = 0..r-1, messages
 * of 80 KB and 8 MB, a 10 % trimmed mean over the runs. The time is from the start (group
 * creation) to the end of the delivery. This program gives the MPI side of that comparison.
 *
 * Build: smpicc -O2 bcast_baseline.c -o bcast_baseline
 * Run:   smpirun -np 256 -platform P.xml -hostfile H --cfg=smpi/bcast:ALG ./bcast_baseline [options]
 *        (validation/multicast/smpi_baseline.sh does both, with the agreed platform and model.)
 *
 * Options (all optional):
 *   -s BYTES    message size in bytes (default 81920)
 *   -n N        timed repeats per group size (default 10)
 *   -m MODE     static | changing (default static)
 *   -a NAME     algorithm label written in the CSV; it should be the --cfg=smpi/bcast value the
 *               run was started with (the program cannot read SimGrid's configuration itself)
 *   -r LIST     group sizes, comma separated (default 8,16,32,64,128,256; sizes > W are skipped)
 *   -w W        number of worker ranks (default: all ranks of MPI_COMM_WORLD)
 *   -b KIND     message buffers: shared | real | auto (default auto = real up to 1 MiB)
 *   -q          no per-repeat rows, only the summary rows
 *
 * WHAT IS TIMED. All times are SMPI's MPI_Wtime, i.e. simulated time, one clock for every rank.
 * The group root is always world rank 0 (member i = 0). Each timed repeat is:
 *
 *   untimed: MPI_Barrier(MPI_COMM_WORLD), every rank, members and non-members;
 *   t0      = MPI_Wtime() on the root, right after the barrier;
 *   mode static:   members call MPI_Bcast(buf, bytes, MPI_BYTE, 0, group_comm) on a
 *                  communicator made before any timing (MPI_Comm_split, not timed);
 *   mode changing: members call MPI_Comm_create_group(MPI_COMM_WORLD, group, tag, &comm)
 *                  [t_created = MPI_Wtime()], then MPI_Bcast on it; MPI_Comm_free after the end
 *                  mark (the delivery is over by then, so it is not timed);
 *   t_end   = MPI_Wtime() on every member, right after its own MPI_Bcast returned;
 *   untimed: MPI_Reduce(MPI_MAX) of t_end (and t_created, and a data-error flag) onto the root.
 *
 *   time = max over members of t_end - t0: the moment the last member has the whole message,
 *   measured from the root's start. Non-members take part only in the barrier and the reduction.
 *   In changing mode the program also prints the group creation alone, as mode "create_group":
 *   max over members of t_created - t0.
 *
 *   What creation costs in SMPI (SimGrid 3.32, src/smpi/bindings/smpi_pmpi_comm.cpp and
 *   smpi_comm.cpp): MPI_Comm_create_group is MPI_Comm_create, i.e. local bookkeeping plus the
 *   new communicator's constructor, which broadcasts a 4-byte communicator id from its rank 0
 *   with the configured smpi/bcast algorithm. No context-id agreement (MPICH's allreduce over
 *   the group) is modelled, so this is a lower bound of what a real MPI pays. The Bcast of the
 *   data can overlap the tail of that id broadcast, so changing - static < create_group.
 *
 *   A member that leaves the barrier later than the root is counted from the root's t0, so
 *   barrier skew is inside the time, never hidden. The script runs SMPI with
 *   smpi/simulate-computation:no (code between MPI calls takes no simulated time) and
 *   smpi/wtime:0 (MPI_Wtime itself adds no simulated time), so only communication is timed.
 *
 * BUFFERS. 256 ranks x 8 MB of private buffers is 2 GB of memory. With -b shared (the default
 * above 1 MiB) the message buffers come from SMPI_SHARED_MALLOC: SimGrid's shared malloc maps
 * every rank's buffer onto the same physical pages and SMPI skips the copy of such buffers, so
 * the simulated timing is unchanged but the content is meaningless and is not checked.
 * With -b real (the default up to 1 MiB, so for 80 KB) each rank has its own malloc'd buffer:
 * the root fills it with a pattern that depends on (r, repeat), the other members clear theirs
 * before the barrier, and after the end mark each member compares the checksum of what it
 * received with the checksum of the expected pattern. Any mismatch makes the run fail.
 *
 * OUTPUT (stdout, world rank 0 only), CSV:
 *   algorithm,mode,r,bytes,repeat,time_s
 * one row per timed repeat (repeat = 0..n-1), then per (mode, r, bytes) a summary row whose
 * repeat field is "trimmed_mean": the 10 % trimmed mean (sort, drop floor(n/10) runs at each end).
 * Exit status is non-zero on bad options or a data mismatch.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxGroupSizes = 32, kRoot = 0, kCreateTag = 4242 };
static const size_t kRealBufferLimit = 1u << 20; /* "auto" uses real buffers up to this size */

typedef enum { MODE_STATIC, MODE_CHANGING } Mode;
typedef enum { BUF_AUTO, BUF_SHARED, BUF_REAL } BufferKind;

typedef struct {
  size_t bytes;
  int repeats;
  Mode mode;
  const char* algorithm;
  int group_sizes[kMaxGroupSizes];
  int group_size_count;
  int workers;
  BufferKind buffers;
  int quiet;
} Options;

/* A message buffer and whether its content can be checked. */
typedef struct {
  unsigned char* data;
  int shared;
} Buffer;

/* ---- options -------------------------------------------------------------------------------- */

static int parse_group_sizes(const char* text, Options* o) {
  o->group_size_count = 0;
  const char* p = text;
  while (*p != '\0') {
    char* end = NULL;
    long r = strtol(p, &end, 10);
    if (end == p || r <= 0 || o->group_size_count == kMaxGroupSizes) return -1;
    o->group_sizes[o->group_size_count++] = (int)r;
    p = (*end == ',') ? end + 1 : end;
    if (*end != ',' && *end != '\0') return -1;
  }
  return o->group_size_count > 0 ? 0 : -1;
}

/* Hand-written parsing on purpose: getopt keeps its position in libc's global optind, which all
 * SMPI ranks share (they are threads of one process), so only the first rank would see options. */
static int parse_options(int argc, char** argv, int world_size, Options* o) {
  static const int kDefaultSizes[] = {8, 16, 32, 64, 128, 256};
  memset(o, 0, sizeof *o);
  o->bytes = 81920;
  o->repeats = 10;
  o->mode = MODE_STATIC;
  o->algorithm = "default";
  for (size_t i = 0; i < sizeof kDefaultSizes / sizeof kDefaultSizes[0]; i++)
    o->group_sizes[o->group_size_count++] = kDefaultSizes[i];
  o->workers = world_size;
  o->buffers = BUF_AUTO;

  for (int i = 1; i < argc; i++) {
    const char* flag = argv[i];
    if (strcmp(flag, "-q") == 0) {
      o->quiet = 1;
      continue;
    }
    if (i + 1 >= argc) return -1;
    const char* value = argv[++i];
    if (strcmp(flag, "-s") == 0) {
      o->bytes = (size_t)strtoull(value, NULL, 10);
    } else if (strcmp(flag, "-n") == 0) {
      o->repeats = atoi(value);
    } else if (strcmp(flag, "-m") == 0) {
      if (strcmp(value, "static") == 0) o->mode = MODE_STATIC;
      else if (strcmp(value, "changing") == 0) o->mode = MODE_CHANGING;
      else return -1;
    } else if (strcmp(flag, "-a") == 0) {
      o->algorithm = value;
    } else if (strcmp(flag, "-r") == 0) {
      if (parse_group_sizes(value, o) != 0) return -1;
    } else if (strcmp(flag, "-w") == 0) {
      o->workers = atoi(value);
    } else if (strcmp(flag, "-b") == 0) {
      if (strcmp(value, "auto") == 0) o->buffers = BUF_AUTO;
      else if (strcmp(value, "shared") == 0) o->buffers = BUF_SHARED;
      else if (strcmp(value, "real") == 0) o->buffers = BUF_REAL;
      else return -1;
    } else {
      return -1;
    }
  }
  if (o->bytes == 0 || o->bytes > (size_t)INT32_MAX || o->repeats <= 0) return -1;
  if (o->workers <= 0 || o->workers > world_size) return -1;
  return 0;
}

/* ---- groups --------------------------------------------------------------------------------- */

/* Member i of a group of r is worker rank (W/r)*i, as in paper 002 (256/r * i). */
static int member_stride(int r, int workers) { return workers / r; }

static int is_member(int rank, int r, int workers) {
  int stride = member_stride(r, workers);
  return rank < workers && rank % stride == 0 && rank / stride < r;
}

/* The r members as an MPI_Group of MPI_COMM_WORLD, in rank order (so member 0, the root, is
 * rank 0 of every communicator made from it). Local operation, no communication. */
static MPI_Group member_group(int r, int workers) {
  MPI_Group world_group, group;
  int* ranks = malloc(sizeof(int) * (size_t)r);
  for (int i = 0; i < r; i++) ranks[i] = i * member_stride(r, workers);
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Group_incl(world_group, r, ranks, &group);
  MPI_Group_free(&world_group);
  free(ranks);
  return group;
}

/* ---- buffers and their check ---------------------------------------------------------------- */

static Buffer buffer_alloc(size_t bytes, BufferKind kind) {
  Buffer b;
  b.shared = (kind == BUF_SHARED) || (kind == BUF_AUTO && bytes > kRealBufferLimit);
  b.data = b.shared ? SMPI_SHARED_MALLOC(bytes) : malloc(bytes);
  if (!b.shared) memset(b.data, 0, bytes);
  return b;
}

static void buffer_free(Buffer* b) {
  if (b->shared) SMPI_SHARED_FREE(b->data);
  else free(b->data);
  b->data = NULL;
}

/* The byte the root sends at offset i in the message of (r, repeat): changes with both, so a
 * buffer left over from an earlier repeat does not pass the check. */
static unsigned char pattern_byte(size_t i, uint32_t seed) {
  uint32_t x = (uint32_t)i * 2654435761u ^ seed;
  return (unsigned char)(x ^ (x >> 13) ^ (x >> 24));
}

static uint32_t pattern_seed(int r, int repeat) { return (uint32_t)r * 1000003u + (uint32_t)repeat; }

static void fill_pattern(unsigned char* data, size_t bytes, uint32_t seed) {
  for (size_t i = 0; i < bytes; i++) data[i] = pattern_byte(i, seed);
}

/* FNV-1a over the buffer: one number to compare with the expected one. */
static uint64_t checksum(const unsigned char* data, size_t bytes) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; i++) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

static uint64_t expected_checksum(size_t bytes, uint32_t seed) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < bytes; i++) h = (h ^ pattern_byte(i, seed)) * 1099511628211ull;
  return h;
}

/* Before the barrier of a repeat: the root writes the message, the others clear theirs. */
static void prepare_buffer(Buffer* b, size_t bytes, int is_root, uint32_t seed) {
  if (b->shared) return;
  if (is_root) fill_pattern(b->data, bytes, seed);
  else memset(b->data, 0, bytes);
}

/* 1.0 if a real buffer does not hold the message of this seed, else 0.0. Shared buffers are
 * never checked (and the expected checksum is not even computed: 256 x 8 MB of it per repeat
 * would cost seconds of wall time). */
static double data_error(const Buffer* b, size_t bytes, uint32_t seed) {
  if (b->shared) return 0.0;
  return checksum(b->data, bytes) == expected_checksum(bytes, seed) ? 0.0 : 1.0;
}

/* ---- timing --------------------------------------------------------------------------------- */

/* What one member reports after a repeat, reduced with MPI_MAX onto the root. Non-members send
 * values below any real time so they never win the maximum. */
typedef struct {
  double t_end;
  double t_created;
  double error;
} Marks;

static const Marks kNoMarks = {-1.0, -1.0, 0.0};

static Marks reduce_marks(Marks mine) {
  Marks all = kNoMarks;
  MPI_Reduce(&mine, &all, 3, MPI_DOUBLE, MPI_MAX, kRoot, MPI_COMM_WORLD);
  return all;
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* 10 % trimmed mean: sort, drop floor(n/10) values at each end, average the rest. */
static double trimmed_mean(const double* values, int n) {
  double* sorted = malloc(sizeof(double) * (size_t)n);
  memcpy(sorted, values, sizeof(double) * (size_t)n);
  qsort(sorted, (size_t)n, sizeof(double), compare_doubles);
  int drop = n / 10;
  double sum = 0.0;
  for (int i = drop; i < n - drop; i++) sum += sorted[i];
  free(sorted);
  return sum / (double)(n - 2 * drop);
}

static void print_row(const Options* o, const char* mode, int r, int repeat, double t) {
  if (!o->quiet) printf("%s,%s,%d,%zu,%d,%.9f\n", o->algorithm, mode, r, o->bytes, repeat, t);
}

static void print_summary(const Options* o, const char* mode, int r, const double* times) {
  printf("%s,%s,%d,%zu,trimmed_mean,%.9f\n", o->algorithm, mode, r, o->bytes,
         trimmed_mean(times, o->repeats));
  fflush(stdout);
}

/* ---- the two modes -------------------------------------------------------------------------- */

/* One timed repeat on a communicator made beforehand. Returns the reduced marks (root only). */
static Marks static_repeat(const Options* o, MPI_Comm comm, Buffer* buf, int r, int repeat,
                           double* t0) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  uint32_t seed = pattern_seed(r, repeat);
  Marks mine = kNoMarks;
  if (comm != MPI_COMM_NULL) prepare_buffer(buf, o->bytes, rank == kRoot, seed);

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == kRoot) *t0 = MPI_Wtime();
  if (comm != MPI_COMM_NULL) {
    MPI_Bcast(buf->data, (int)o->bytes, MPI_BYTE, 0, comm);
    mine.t_end = MPI_Wtime();
    mine.error = data_error(buf, o->bytes, seed);
  }
  return reduce_marks(mine);
}

/* One timed repeat that makes the communicator inside the timed region and frees it after. */
static Marks changing_repeat(const Options* o, MPI_Group group, Buffer* buf, int r, int repeat,
                             double* t0) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int member = is_member(rank, r, o->workers);
  uint32_t seed = pattern_seed(r, repeat);
  Marks mine = kNoMarks;
  if (member) prepare_buffer(buf, o->bytes, rank == kRoot, seed);

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == kRoot) *t0 = MPI_Wtime();
  if (member) {
    MPI_Comm comm;
    MPI_Comm_create_group(MPI_COMM_WORLD, group, kCreateTag, &comm);
    mine.t_created = MPI_Wtime();
    MPI_Bcast(buf->data, (int)o->bytes, MPI_BYTE, 0, comm);
    mine.t_end = MPI_Wtime();
    MPI_Comm_free(&comm);
    mine.error = data_error(buf, o->bytes, seed);
  }
  return reduce_marks(mine);
}

/* All repeats of one group size; prints rows and the summary. Returns the number of repeats
 * whose data did not check out. */
static int run_group_size(const Options* o, int r, Buffer* buf) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int member = is_member(rank, r, o->workers);
  double* times = malloc(sizeof(double) * (size_t)o->repeats);
  double* creates = malloc(sizeof(double) * (size_t)o->repeats);
  int errors = 0;

  /* Static mode: the communicator is made once, before any timing. */
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Group group = MPI_GROUP_NULL;
  if (o->mode == MODE_STATIC)
    MPI_Comm_split(MPI_COMM_WORLD, member ? 0 : MPI_UNDEFINED, rank, &comm);
  else
    group = member_group(r, o->workers);

  for (int repeat = 0; repeat < o->repeats; repeat++) {
    double t0 = 0.0;
    Marks m = (o->mode == MODE_STATIC) ? static_repeat(o, comm, buf, r, repeat, &t0)
                                       : changing_repeat(o, group, buf, r, repeat, &t0);
    if (rank != kRoot) continue;
    times[repeat] = m.t_end - t0;
    creates[repeat] = m.t_created - t0;
    if (m.error > 0.0) errors++;
    print_row(o, o->mode == MODE_STATIC ? "static" : "changing", r, repeat, times[repeat]);
  }
  if (rank == kRoot) {
    if (o->mode == MODE_CHANGING)
      for (int repeat = 0; repeat < o->repeats; repeat++)
        print_row(o, "create_group", r, repeat, creates[repeat]);
    print_summary(o, o->mode == MODE_STATIC ? "static" : "changing", r, times);
    if (o->mode == MODE_CHANGING) print_summary(o, "create_group", r, creates);
  }

  if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  if (group != MPI_GROUP_NULL) MPI_Group_free(&group);
  free(times);
  free(creates);
  return errors;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, world_size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);

  Options o;
  if (parse_options(argc, argv, world_size, &o) != 0) {
    if (rank == kRoot)
      fprintf(stderr, "usage: bcast_baseline [-s bytes] [-n repeats] [-m static|changing] [-a label]"
                      " [-r r1,r2,...] [-w workers<=%d] [-b shared|real|auto] [-q]\n", world_size);
    MPI_Finalize();
    return 2;
  }

  Buffer buf = buffer_alloc(o.bytes, o.buffers);
  if (rank == kRoot) {
    printf("algorithm,mode,r,bytes,repeat,time_s\n");
    fprintf(stderr, "bcast_baseline: %s %s, %zu B, %d repeats, W=%d, %s buffers\n", o.algorithm,
            o.mode == MODE_STATIC ? "static" : "changing", o.bytes, o.repeats, o.workers,
            buf.shared ? "shared (SMPI_SHARED_MALLOC, unchecked)" : "real (checksummed)");
  }

  int errors = 0;
  for (int i = 0; i < o.group_size_count; i++) {
    int r = o.group_sizes[i];
    if (r > o.workers) continue; /* a group cannot have more members than there are workers */
    errors += run_group_size(&o, r, &buf);
  }

  buffer_free(&buf);
  if (rank == kRoot && errors > 0)
    fprintf(stderr, "bcast_baseline: %d repeat(s) delivered wrong data\n", errors);
  MPI_Finalize();
  /* Only the root knows the count; one non-zero rank is enough for smpirun to fail. */
  return errors > 0 ? 1 : 0;
}
