# /// case
# source = "https://github.com/keras-team/keras/issues/19225"
# title = "'Functional' object has no attribute 'fit_generator'"
# sampling = "by-pattern"
# symptom = "AttributeError: 'Functional' object has no attribute 'fit_generator'"
# flavour = "keras3"
# kind = "Keras 3 removed fit_generator/evaluate_generator/predict_generator"
# mistake = "After upgrading to Keras 3 the training code still calls model.fit_generator() with a keras.utils.Sequence; fit() takes the data (a PyDataset) directly."
# runtime = "raises"
# expected = ["TFL607"]
# ///
import keras


class Batches(keras.utils.Sequence):
    def __init__(self, x, y, batch_size):
        self.x, self.y, self.batch_size = x, y, batch_size

    def __len__(self):
        return len(self.x) // self.batch_size

    def __getitem__(self, i):
        s = slice(i * self.batch_size, (i + 1) * self.batch_size)
        return self.x[s], self.y[s]


def train(model, x, y):
    model.fit_generator(Batches(x, y, 32), epochs=10)  # <-
