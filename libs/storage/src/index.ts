// Public API of @schedlab/storage: the PV controller, storage lifecycle and storage summaries around the scheduler.
