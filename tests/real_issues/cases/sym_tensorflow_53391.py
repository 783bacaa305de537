# /// case
# source = "https://github.com/tensorflow/tensorflow/issues/53391"
# title = "AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# sampling = "by-symptom: AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# symptom = "AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# flavour = "tf.keras"
# kind = "Keras 3 / TF 2.6+ removed Sequential.predict_classes/predict_proba"
# mistake = "A text-generation loop picks the next word with predict_classes(), removed in TF 2.6."
# runtime = "raises"
# expected = ["TFL607"]
# ///
from tensorflow.keras.preprocessing.sequence import pad_sequences


def generate(model, tokenizer, seed_text, max_len, n_words=100):
    for _ in range(n_words):
        ids = tokenizer.texts_to_sequences([seed_text])[0]
        ids = pad_sequences([ids], maxlen=max_len - 1, padding="pre")
        predicted = model.predict_classes(ids, verbose=0)  # <-
        word = next((w for w, i in tokenizer.word_index.items() if i == predicted), "")
        seed_text += " " + word
    return seed_text
