// BindAnalysis
