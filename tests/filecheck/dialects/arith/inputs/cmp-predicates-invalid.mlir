func.func @quoted(%a: f64) -> i1 {
  %0 = arith.cmpf "olx", %a, %a : f64
  func.return %0 : i1
}

// -----

func.func @keyword(%i: i32) -> i1 {
  %0 = arith.cmpi lt, %i, %i : i32
  func.return %0 : i1
}
