"""The TensorFlow 1.15 oracle: TF 1.x programs run unchanged on real TF 1.15 and upgraded on the current TF."""
