import NookSystemEntry

// nook-system: its entry point is a library (NookSystemEntry), so the installed programs can
// share one multi-call binary (`nook-programs`).
await Program.main()
