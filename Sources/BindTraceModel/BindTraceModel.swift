// BindTraceModel
