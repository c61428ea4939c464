// RUN: not ascendir-opt %s --passes mem2rg 2>&1 | filecheck %s

// A misspelt pass name is a usage error that names the closest pass.

builtin.module {
}

// CHECK: unknown pass 'mem2rg'; did you mean mem2reg?
