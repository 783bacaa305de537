# /// case
# source = "https://intellipaat.com/community/17161/keras-model-evaluate-vs-model-predict-accuracy-difference-in-multi-class-nlp-task"
# title = "Keras: model.evaluate vs model.predict accuracy difference in multi-class NLP task"
# sampling = "by-symptom: model.compile categorical_crossentropy accuracy very low my labels are integers keras"
# symptom = "model.evaluate shows 98% accuracy but the predicted classes are only 83% right"
# flavour = "tf.keras"
# kind = "sigmoid + binary_crossentropy for single-label multi-class"
# mistake = "A 19-class single-label text classifier uses sigmoid outputs with binary_crossentropy, so the reported accuracy was per-label binary accuracy; classes are then read with predict_classes()."
# runtime = "silent"
# expected = ["TFL809"]
# ///
from keras.layers import LSTM, BatchNormalization, Dense, Dropout, Embedding
from keras.models import Sequential

nb_classes = 19


def build(nb_words, embedding_matrix, max_len):
    model1 = Sequential()
    model1.add(Embedding(nb_words, 300, weights=[embedding_matrix], input_length=max_len, trainable=False))
    model1.add(LSTM(128, dropout=0.2, recurrent_dropout=0.2))
    model1.add(BatchNormalization())
    model1.add(Dense(nb_classes, activation="sigmoid"))  # <-
    model1.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])  # <-
    return model1


def predict(model1, test_data):
    return model1.predict_classes(test_data, batch_size=384)  # <-
