import NookdEntry

// nookd: the broker. Its entry point is a library (NookdEntry), so the installed programs can
// share one multi-call binary (`nook-programs`).
await Program.main()
