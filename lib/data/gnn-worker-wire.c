/* gnn-worker-wire.c: the wire protocol between a data loader and its
 * worker processes: messages (with a descriptor attached) on a worker's
 * SOCK_SEQPACKET socket, memfd segments, error reports
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "data/gnn-worker-wire-private.h"

/* --- messages ------------------------------------------------------------- */

/* Sends a message, with @fd attached unless it is -1. */
gboolean
gnn_wire_send (int                   sock,
               const GnnWireMessage *m,
               const void           *payload,
               gsize                 payload_len,
               int                   fd,
               gboolean              block)
{
  struct iovec iov[2] = {
    { (void *) m, sizeof *m },
    { (void *) payload, payload_len },
  };
  union { char buf[CMSG_SPACE (sizeof (int))]; struct cmsghdr align; } control;
  struct msghdr msg = { 0 };
  ssize_t r;

  msg.msg_iov = iov;
  msg.msg_iovlen = payload_len > 0 ? 2 : 1;
  if (fd >= 0)
    {
      struct cmsghdr *c;

      memset (&control, 0, sizeof control);
      msg.msg_control = control.buf;
      msg.msg_controllen = sizeof control.buf;
      c = CMSG_FIRSTHDR (&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN (sizeof (int));
      memcpy (CMSG_DATA (c), &fd, sizeof (int));
    }
  do
    r = sendmsg (sock, &msg, MSG_NOSIGNAL | (block ? 0 : MSG_DONTWAIT));
  while (r < 0 && errno == EINTR);
  return r == (ssize_t) (sizeof *m + payload_len);
}

/* Receives one message into @buf (GNN_WIRE_MAX_MESSAGE bytes); *@fd gets an attached
 * descriptor or -1. Returns the size, 0 at end of stream, -1 on error. */
ssize_t
gnn_wire_receive (int     sock,
                  guint8 *buf,
                  int    *fd)
{
  struct iovec iov = { buf, GNN_WIRE_MAX_MESSAGE };
  union { char buf[CMSG_SPACE (sizeof (int))]; struct cmsghdr align; } control;
  struct msghdr msg = { 0 };
  ssize_t r;

  *fd = -1;
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control.buf;
  msg.msg_controllen = sizeof control.buf;
  do
    r = recvmsg (sock, &msg, MSG_CMSG_CLOEXEC);
  while (r < 0 && errno == EINTR);
  if (r > 0)
    for (struct cmsghdr *c = CMSG_FIRSTHDR (&msg); c != NULL; c = CMSG_NXTHDR (&msg, c))
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
        memcpy (fd, CMSG_DATA (c), sizeof (int));
  if (r > 0 && ((msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || r < (ssize_t) sizeof (GnnWireMessage)))
    {
      if (*fd >= 0)
        close (*fd);
      *fd = -1;
      errno = EPROTO;
      return -1;
    }
  return r;
}

/* A new memfd of @size bytes mapped read-write, or -1. */
int
gnn_wire_segment_new (gsize    size,
                      guint8 **map)
{
  return gnn_wire_memfd_new ("gnn-batch", size, map);
}

int
gnn_wire_memfd_new (const char  *name,
                    gsize        size,
                    guint8     **map)
{
  int fd = memfd_create (name, MFD_CLOEXEC);

  if (fd < 0)
    return -1;
  if (ftruncate (fd, (off_t) size) != 0)
    {
      close (fd);
      return -1;
    }
  *map = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (*map == MAP_FAILED)
    {
      close (fd);
      return -1;
    }
  return fd;
}

/* --- errors --------------------------------------------------------------- */

gboolean
gnn_wire_send_error (guint                 id,
                     int                   sock,
                     const GnnWireMessage *task,
                     GError               *error)
{
  const char *domain = g_quark_to_string (error->domain);
  g_autofree char *text = g_strdup_printf ("DataLoader worker %u (pid %d): %s", id,
                                           (int) getpid (), error->message);
  gsize dlen = strlen (domain) + 1, mlen = MIN (strlen (text), GNN_WIRE_MAX_MESSAGE - sizeof (GnnWireMessage) - dlen - 1);
  g_autofree char *payload = g_malloc (dlen + mlen);
  GnnWireMessage m = { GNN_MSG_ERROR, task->epoch, task->seq, error->code, 0, 0, (guint32) dlen };

  memcpy (payload, domain, dlen);
  memcpy (payload + dlen, text, mlen);
  return gnn_wire_send (sock, &m, payload, dlen + mlen, -1, TRUE);
}


/* --- a segment's names ------------------------------------------------------ */

static gboolean
names_apply (const GnnBatch *layout,
             guint           n_tensors)
{
  return layout != NULL && gnn_batch_get_n_fields (layout) == n_tensors &&
         (n_tensors == 0 || gnn_batch_get_name (layout, 0) != NULL);
}

gboolean
gnn_wire_names_size (const GnnBatch  *layout,
                     guint            n_tensors,
                     gsize           *names_bytes,
                     GError         **error)
{
  guint64 total = 0;

  *names_bytes = 0;
  if (!names_apply (layout, n_tensors))
    return TRUE;
  for (guint i = 0; i < n_tensors; i++)
    total += sizeof (guint32) + strlen (gnn_batch_get_name (layout, i));
  /* the table must fit the header's count and a message-sized header area */
  if (total > G_MAXUINT32 || total > (guint64) G_MAXSIZE / 2)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_MEMORY,
                   "DataLoader: the %u field names of the batch take %" G_GUINT64_FORMAT
                   " bytes, more than a batch segment holds", n_tensors, total);
      return FALSE;
    }
  *names_bytes = (gsize) total;
  return TRUE;
}

GnnWireSegmentTensor *
gnn_wire_segment_header_write (guint8         *map,
                               guint           n_tensors,
                               const GnnBatch *layout,
                               gsize           names_bytes)
{
  GnnWireSegmentHeader *h = (GnnWireSegmentHeader *) map;
  GnnWireSegmentTensor *ts = (GnnWireSegmentTensor *) (h + 1);
  guint8 *p = (guint8 *) (ts + n_tensors);

  h->magic = GNN_WIRE_SEGMENT_MAGIC;
  h->n_tensors = n_tensors;
  h->kind = layout != NULL && gnn_batch_get_n_fields (layout) == n_tensors
            ? (guint32) gnn_batch_get_kind (layout) : GNN_BATCH_KIND_TUPLE;
  h->names_bytes = (guint32) names_bytes;
  for (guint i = 0; names_bytes > 0 && i < n_tensors; i++)
    {
      const char *name = gnn_batch_get_name (layout, i);
      guint32 len = (guint32) strlen (name);

      memcpy (p, &len, sizeof len);
      memcpy (p + sizeof len, name, len);
      p += sizeof len + len;
    }
  return ts;
}

GnnBatch *
gnn_wire_segment_batch (const GnnWireSegmentHeader *h,
                        gsize                       avail,
                        GPtrArray                  *tensors)
{
  const guint8 *p = (const guint8 *) ((const GnnWireSegmentTensor *) (h + 1) + h->n_tensors);
  g_autoptr(GPtrArray) owned = tensors;
  g_auto(GStrv) names = NULL;
  gsize left = h->names_bytes;

  if (h->kind > GNN_BATCH_KIND_BARE || left > avail)
    return NULL;
  if (left > 0)
    {
      names = g_new0 (char *, h->n_tensors + 1);
      for (guint i = 0; i < h->n_tensors; i++)
        {
          guint32 len;

          if (left < sizeof len)
            return NULL;
          memcpy (&len, p, sizeof len);
          if (len > left - sizeof len)
            return NULL;
          names[i] = g_strndup ((const char *) p + sizeof len, len);
          p += sizeof len + len;
          left -= sizeof len + len;
        }
    }
  /* checked as any new batch: unique UTF-8 names, a kind that fits */
  return gnn_batch_new ((GnnBatchKind) h->kind, (const char * const *) names, owned, NULL);
}
