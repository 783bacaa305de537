# /// case
# source = "https://github.com/kairess/fingerprint_recognition/issues/2"
# title = "Error on keras==3.2.0"
# sampling = "by-pattern"
# symptom = "AttributeError: 'Functional' object has no attribute 'fit_generator'"
# flavour = "keras3"
# kind = "Keras 3 removed fit_generator/evaluate_generator/predict_generator"
# mistake = "The fingerprint-matching notebook trains its siamese model with fit_generator() on a custom Sequence, removed in Keras 3."
# runtime = "raises"
# expected = ["TFL607"]
# ///
from keras.callbacks import ReduceLROnPlateau


def train(model, train_gen, val_gen):
    history = model.fit_generator(  # <-
        train_gen,
        epochs=15,
        validation_data=val_gen,
        callbacks=[ReduceLROnPlateau(monitor="val_loss", factor=0.1, patience=5)],
    )
    return history
