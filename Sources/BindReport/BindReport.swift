// BindReport
