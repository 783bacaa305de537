# /// case
# source = "https://github.com/percent4/keras_bert_multi_label_cls/issues/2"
# title = "ValueError: Layer model_2 expects 2 input(s), but it received 1 input tensors. Inputs received: [<tf.Tensor 'IteratorGetNext:0' shape=(None, 1, 256) dtype=int64>]"
# sampling = "by-symptom: Layer sequential expects 1 input(s), but it received 2 input tensors"
# symptom = "ValueError: Layer model_2 expects 2 input(s), but it received 1 input tensors."
# flavour = "tf.keras"
# kind = "multi-input model given inputs nested one list too deep"
# mistake = "The two BERT inputs are wrapped in an extra list, model.predict([[X1, X2]]), so Keras sees a single input instead of two."
# runtime = "raises"
# note = "Keras 3.15 only warns: The structure of `inputs` doesn't match the expected structure (checked)."
# ///
import numpy as np


def predict(model, tokenizer, text, maxlen=256):
    x1, x2 = tokenizer.encode(first=text, max_len=maxlen)
    X1 = np.array([x1])
    X2 = np.array([x2])
    prediction = model.predict([[X1, X2]])  # <-
    return prediction[0]
