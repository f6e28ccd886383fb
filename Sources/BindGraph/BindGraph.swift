// BindGraph
