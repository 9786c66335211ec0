/* gnn-train-progress.h: gnn-train's progress output and its stop signals
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

/* Where an epoch stands, for one progress report. */
typedef struct
{
  gint64 epoch, epochs;
  gint64 done, total;       /* batches of the epoch */
  gint64 samples;           /* samples of the epoch so far */
  double loss;              /* mean loss so far */
  double rate;              /* samples per second in this run */
  double eta;               /* seconds left in the epoch, < 0: unknown */
} GnnTrainProgress;

/* A terminal gets a bar redrawn in place ("\r"), anything else one plain
 * line per report. */
void gnn_train_print_progress (const GnnTrainProgress *p,
                               gboolean                tty);

/* SIGINT and SIGTERM set a flag instead of killing the process (a second
 * one kills it): the training loop checkpoints and exits. */
void gnn_train_signals_install (void);
/* The signal that asked to stop, or 0. */
int  gnn_train_stop_signal     (void);
/* Waits until a stop signal came (a test's stand-in for a long batch). */
void gnn_train_wait_for_signal (void);
