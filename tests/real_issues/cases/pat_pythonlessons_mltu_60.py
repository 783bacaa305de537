# /// case
# source = "https://github.com/pythonlessons/mltu/issues/60"
# title = "Error unexpected keyword argument 'workers'"
# sampling = "by-pattern"
# symptom = "TypeError: TensorFlowTrainer.fit() got an unexpected keyword argument 'workers'"
# flavour = "keras3"
# kind = "Keras 2 fit() arguments removed in Keras 3 (workers, use_multiprocessing, max_queue_size)"
# mistake = "A captcha-recognition tutorial passes workers= to fit() for parallel loading of its data provider; Keras 3's fit() has no such argument."
# runtime = "raises"
# expected = ["TFL608"]
# note = "Keras 3.15: TypeError on fit(workers=...); tf-keras 2.21 accepts it (checked)."
# ///
def train(model, train_data_provider, val_data_provider, configs, callbacks):
    model.fit(
        train_data_provider,
        validation_data=val_data_provider,
        epochs=configs.train_epochs,
        callbacks=callbacks,
        workers=configs.train_workers,  # <-
    )
