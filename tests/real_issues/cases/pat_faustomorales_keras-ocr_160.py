# /// case
# source = "https://github.com/faustomorales/keras-ocr/pull/160"
# title = "Bump Model.fit_generator() to Model.fit()"
# sampling = "by-pattern"
# symptom = "Model.fit_generator (from tensorflow.python.keras.engine.training) is deprecated and will be removed in a future version."
# flavour = "tf.keras"
# kind = "Keras 3 removed fit_generator/evaluate_generator/predict_generator"
# mistake = "The recognizer training loop uses Model.fit_generator(), deprecated since TF 2.1 and gone in Keras 3; fit() accepts generators."
# runtime = "warns"
# expected = ["TFL607"]
# ///
def train_recognizer(recognizer, training_gen, validation_gen, training_steps, validation_steps, callbacks):
    recognizer.training_model.fit_generator(  # <-
        generator=training_gen,
        steps_per_epoch=training_steps,
        validation_steps=validation_steps,
        validation_data=validation_gen,
        callbacks=callbacks,
        epochs=1000,
    )
