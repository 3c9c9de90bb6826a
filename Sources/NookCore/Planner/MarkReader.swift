extension ModuleMarks {
    /// The nook ids each activity of `module` marks in the views of these scenes.
    public static func reading(module: String, in scenes: [PlannerScene]) -> ModuleMarks {
        reading(module: module, in: scenes.map(\.slots))
    }

    static func reading(module: String, in slotLists: [[PreparedSlot]]) -> ModuleMarks {
        var activities: [String: Set<String>] = [:]
        for slots in slotLists {
            for index in slots.indices where slots[index].owner.module == module {
                guard let activity = slots[index].owner.activity else { continue }
                // The ids go straight into the activity's set (`nookIds` would build a set per slot).
                // By index, the id read in place: `for element in` copied every element first.
                let elements = slots[index].namespaces.elements
                for elementIndex in elements.indices where elements[elementIndex].key.namespace == .nook {
                    activities[activity, default: []].insert(elements[elementIndex].id)
                }
            }
        }
        return ModuleMarks(module: module, activities: activities)
    }
}

/// Each module's marks (rule 8): the caller's when given, else read from the scenes, one
/// module at a time and only for modules whose nook ids are in play.
struct MarkReader {
    let given: [String: ModuleMarks]?
    /// The slots of the scenes to read from (just the slots: a whole scene is a large value).
    let slotLists: [[PreparedSlot]]
    private var read: [String: ModuleMarks] = [:]

    /// The scenes are read only when no marks are given; the broker always gives them, and
    /// then not even the slot lists are gathered (a list of two scenes is a large allocation).
    init(given: [String: ModuleMarks]?, before: PlannerScene, after: PlannerScene) {
        self.given = given
        slotLists = given == nil ? [before.slots, after.slots] : []
    }

    mutating func marks(of module: String) -> ModuleMarks {
        if let given { return given[module] ?? ModuleMarks(module: module, activities: [:]) }
        if let known = read[module] { return known }
        let marks = ModuleMarks.reading(module: module, in: slotLists)
        read[module] = marks
        return marks
    }
}
