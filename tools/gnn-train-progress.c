/* gnn-train-progress.c: gnn-train's progress output and its stop signals
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "gnn-train-progress.h"

static volatile sig_atomic_t stop_signal;

/* "1:02:03", "2:03", or "?" when unknown. */
static void
format_eta (double  seconds,
            char   *buf,
            gsize   size)
{
  gint64 s;

  if (!(seconds >= 0) || seconds > 1e9)
    {
      g_strlcpy (buf, "?", size);
      return;
    }
  s = (gint64) (seconds + 0.5);
  if (s >= 3600)
    g_snprintf (buf, size, "%" G_GINT64_FORMAT ":%02d:%02d", s / 3600, (int) (s / 60 % 60),
                (int) (s % 60));
  else
    g_snprintf (buf, size, "%d:%02d", (int) (s / 60), (int) (s % 60));
}

void
gnn_train_print_progress (const GnnTrainProgress *p,
                          gboolean                tty)
{
  char eta[32];

  format_eta (p->eta, eta, sizeof eta);
  if (tty)
    {
      const int width = 30;
      int filled = p->total > 0 ? (int) (width * p->done / p->total) : width;
      char bar[64];

      memset (bar, '=', filled);
      memset (bar + filled, '.', width - filled);
      bar[width] = '\0';
      printf ("\repoch %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " [%s] %5" G_GINT64_FORMAT "/%"
              G_GINT64_FORMAT " loss %.4f %8.0f samples/s ETA %s ", p->epoch, p->epochs, bar,
              p->done, p->total, p->loss, p->rate, eta);
    }
  else
    printf ("epoch %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT ": batch %" G_GINT64_FORMAT "/%"
            G_GINT64_FORMAT " (%.0f%%), %" G_GINT64_FORMAT " samples, loss %.4f, %.0f samples/s, "
            "ETA %s\n", p->epoch, p->epochs, p->done, p->total,
            p->total > 0 ? 100.0 * (double) p->done / (double) p->total : 0.0, p->samples,
            p->loss, p->rate, eta);
  fflush (stdout);
}

static void
on_stop_signal (int signo)
{
  stop_signal = signo;
}

void
gnn_train_signals_install (void)
{
  struct sigaction sa;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  /* a second Ctrl-C kills at once; blocking calls resume after the first */
  sa.sa_flags = SA_RESTART | SA_RESETHAND;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
}

int
gnn_train_stop_signal (void)
{
  return stop_signal;
}

/* Polls: the signal may be delivered to another thread (a loader worker). */
void
gnn_train_wait_for_signal (void)
{
  while (stop_signal == 0)
    g_usleep (10 * 1000);
}
