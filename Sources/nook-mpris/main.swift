import NookMPRISEntry

// nook-mpris: its code is the MusicModule example (Examples/MusicModule), a library, so the
// installed programs can share one multi-call binary (`nook-programs`).
await Program.main()
