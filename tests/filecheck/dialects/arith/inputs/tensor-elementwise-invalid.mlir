func.func @cast_shape(%a: tensor<4xf64>) -> tensor<5xi32> {
  %0 = arith.fptosi %a : tensor<4xf64> to tensor<5xi32>
  func.return %0 : tensor<5xi32>
}

// -----

func.func @cast_kind(%a: tensor<4xf64>) -> vector<4xi32> {
  %0 = "arith.fptosi"(%a) : (tensor<4xf64>) -> vector<4xi32>
  func.return %0 : vector<4xi32>
}

// -----

func.func @compare_shape(%a: tensor<4xf64>) -> tensor<3xi1> {
  %0 = "arith.cmpf"(%a, %a) <{predicate = 4 : i64}> : (tensor<4xf64>, tensor<4xf64>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}
