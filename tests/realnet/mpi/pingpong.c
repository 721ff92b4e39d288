/* A blocking MPI ping-pong between ranks 0 and 1, as paper 004's mpptest measured it: for each
 * size, `repeats` round trips of MPI_Send / MPI_Recv; rank 0 prints half the best round trip
 * ("the time of a message") per size: "pingpong BYTES MESSAGE_NS".
 * Usage: pingpong REPEATS SIZE... (bytes) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int repeats = argc > 1 ? atoi(argv[1]) : 3;
  long largest = 0;
  for (int i = 2; i < argc; ++i)
    if (atol(argv[i]) > largest) largest = atol(argv[i]);
  char* buffer = calloc((size_t)largest + 1, 1);
  for (int i = 2; i < argc; ++i) {
    const int bytes = (int)atol(argv[i]);
    double best = 1e30;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < repeats; ++r) {
      const double start = MPI_Wtime();
      if (rank == 0) {
        MPI_Send(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buffer, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buffer, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
      const double round_trip = MPI_Wtime() - start;
      if (round_trip < best) best = round_trip;
    }
    if (rank == 0) printf("pingpong %d %.0f\n", bytes, best / 2 * 1e9);
    fflush(stdout);
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
