// BindTesting
