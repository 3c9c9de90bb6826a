// `make bench`: every figure is compared with a baseline measured in the same run.
print("Nook benchmarks (release build)\n")
try await runBusBenchmark()
print("")
runLayoutBenchmark()
