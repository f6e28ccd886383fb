print("bind-trace")
