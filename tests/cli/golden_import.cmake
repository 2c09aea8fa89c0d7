# Issue 23, items 3 and 4 — floats in, exact models out (docs/import.md): `rnncc import` (arrays
# named after a family's parameters) and `rnncc import-weights` (one trained layer), their
# rounding reports and agreement, and every refusal naming the tensor (exit 2, nothing written).
# The files come from tests/cli/import/make_import_files.py.
set(imp tests/cli/import)
rnncc_golden(import-exact 0 import_exact.txt stdout import general ${imp}/parity_arrays.safetensors --alphabet 0,1)
rnncc_golden(import-bits 0 import_bits.txt stdout import general ${imp}/parity_arrays.safetensors --alphabet 0,1 --precision bits:8 --json)
rnncc_golden(import-model 0 import_model.txt file:import_parity.json import general ${imp}/parity_arrays.safetensors --alphabet 0,1 --precision bits:8 -o import_parity.json)
rnncc_golden(import-missing 2 import_missing.txt stderr import deltanet ${imp}/parity_arrays.safetensors --alphabet 0,1)
rnncc_golden(import-log-length 2 import_log_length.txt stderr import general ${imp}/parity_arrays.safetensors --alphabet 0,1 --precision log:2)
rnncc_golden(import-family 2 import_family.txt stderr import lstm ${imp}/parity_arrays.safetensors --alphabet 0,1)
rnncc_golden(import-weights-deltanet 0 import_weights_deltanet.txt stdout import-weights ${imp}/deltanet_layer.safetensors --family deltanet --vocab a,b,c)
rnncc_golden(import-weights-gdn-log 0 import_weights_gdn_log.txt stdout import-weights ${imp}/gdn_layer.safetensors --family gdn --vocab a,b,c --precision log:2 --length 8 --json)
rnncc_golden(import-weights-conv4 2 import_weights_conv4.txt stderr import-weights ${imp}/deltanet_conv4.safetensors --family deltanet --vocab a,b,c -o import_never.json)
rnncc_golden(import-weights-missing 2 import_weights_missing.txt stderr import-weights ${imp}/deltanet_missing.safetensors --family deltanet --vocab a,b,c)
rnncc_golden(import-weights-misshaped 2 import_weights_misshaped.txt stderr import-weights ${imp}/deltanet_misshaped.safetensors --family deltanet --vocab a,b,c)
rnncc_golden(import-weights-vocab 2 import_weights_vocab.txt stderr import-weights ${imp}/deltanet_layer.safetensors --family deltanet --vocab a,b=7)
rnncc_golden(import-weights-family 2 import_weights_family.txt stderr import-weights ${imp}/deltanet_layer.safetensors --family lstm --vocab a,b)
rnncc_golden(import-weights-not-safetensors 2 import_weights_not_safetensors.txt stderr import-weights examples/parity_deltanet.json --family deltanet --vocab a,b)
rnncc_golden(import-weights-v-activation 2 import_weights_v_activation.txt stderr import-weights ${imp}/deltanet_v_relu.safetensors --family deltanet --vocab a,b,c -o import_never.json)
# A misspelled family names the nearest one (docs/cli.md, "Typos").
rnncc_golden(typo-import-weights-family 2 typo_import_weights_family.txt stderr import-weights ${imp}/deltanet_layer.safetensors --family gdnn --vocab a,b)
rnncc_golden(typo-import-family 2 typo_import_family.txt stderr import diagnal ${imp}/parity_arrays.safetensors --alphabet 0,1)
