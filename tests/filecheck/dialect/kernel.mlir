// RUN: ascendir-opt %s | filecheck %s

// The kernel op: a symbol whose arguments are GM pointers and scalars, a kernel type, and a body ended
// by ascendc.return. A kernel written without a kernel type gets "default", other attributes are kept,
// and the generic form parses to the same op.

builtin.module {
  ascendc.kernel @vector_only(%x: !ascendc.gm_ptr<ui8>, %n: i32) attributes {kernel_type = "aiv"} {
    ascendc.return
  }
  ascendc.kernel @mixed(%a: !ascendc.gm_ptr<f16>) attributes {kernel_type = "mix_aic_1_2", note = "kept"} {
    ascendc.return
  }
  ascendc.kernel @untyped(%t: !ascendc.gm_ptr<ui8>) {
    ascendc.return
  }
  "ascendc.kernel"() <{sym_name = "generic", function_type = (!ascendc.gm_ptr<ui8>) -> (), kernel_type = "aic"}> ({
  ^bb0(%g: !ascendc.gm_ptr<ui8>):
    ascendc.return
  }) : () -> ()
}

// CHECK:      ascendc.kernel @vector_only(%x: !ascendc.gm_ptr<ui8>, %n: i32) attributes {kernel_type = "aiv"} {
// CHECK-NEXT:   ascendc.return
// CHECK-NEXT: }
// CHECK-NEXT: ascendc.kernel @mixed(%a: !ascendc.gm_ptr<f16>) attributes {note = "kept", kernel_type = "mix_aic_1_2"} {
// CHECK:      ascendc.kernel @untyped(%t: !ascendc.gm_ptr<ui8>) attributes {kernel_type = "default"} {
// CHECK:      ascendc.kernel @generic(%g: !ascendc.gm_ptr<ui8>) attributes {kernel_type = "aic"} {
