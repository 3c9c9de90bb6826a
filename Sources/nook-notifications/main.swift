import NookNotificationsEntry

// nook-notifications: its entry point is a library (NookNotificationsEntry), so the installed
// programs can share one multi-call binary (`nook-programs`).
await Program.main()
