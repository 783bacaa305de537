# /// case
# source = "https://github.com/keras-team/keras/issues/17156"
# title = "Y_pred = model.predict_classes(X_test) Y_pred"
# sampling = "by-symptom: AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# symptom = "AttributeError: 'Sequential' object has no attribute 'predict_classes'"
# flavour = "tf.keras"
# kind = "Keras 3 / TF 2.6+ removed Sequential.predict_classes/predict_proba"
# mistake = "A notebook evaluates a multi-class model with predict_classes(), removed from Sequential; np.argmax(model.predict(x), axis=1) replaces it."
# runtime = "raises"
# expected = ["TFL607"]
# ///
from sklearn.metrics import confusion_matrix


def report(model, X_test, y_test):
    Y_pred = model.predict_classes(X_test)  # <-
    return confusion_matrix(y_test, Y_pred)
