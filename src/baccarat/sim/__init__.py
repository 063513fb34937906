"""Monte Carlo simulation: the compiled shoe kernel, strategies, bankrolls and distributed runs."""
