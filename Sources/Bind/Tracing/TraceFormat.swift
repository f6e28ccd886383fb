// The trace format lives in the leaf module `BindTraceFormat` (record tags, fields, encoder and
// decoder), shared with the reader in `BindTraceModel`.
//
// TEMPORARY re-export: `OutputKind` and `UnbindReason` moved to `BindTraceFormat`, and files of Bind's
// core still name them without importing it. Once each of those files says `import BindTraceFormat`
// (or `package import`), make this `package import BindTraceFormat` so the app-facing `Bind` stops
// exposing them.
@_exported import BindTraceFormat
