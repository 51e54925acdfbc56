/* file.h - file helpers every module shares: small sysfs/procfs files, mkdir -p,
 * the one atomic writer (temp file, fsync, rename, fsync of the directory) and a
 * sorted directory listing. Return 0 (or a count) on success, -errno on failure:
 * the caller words the message, since it knows what the file is for. */
#ifndef VMTUNE_FILE_H
#define VMTUNE_FILE_H

#include <stdio.h>
#include <sys/types.h>

/* Read a whole small file (trailing newline and blanks stripped): its length. */
int read_small_file(const char *path, char *buf, size_t size);
/* Write a string and a newline in one write(2), as `echo VALUE > FILE` does. */
int write_small_file(const char *path, const char *s);

/* mkdir -p: the parents 0755, the last component `mode`. */
int file_mkdir_p(const char *dir, mode_t mode);

/* Atomic replacement: open PATH.tmp for writing, write to the FILE, then commit
 * (flush, fsync, chmod, rename over PATH, fsync the directory) or abort (remove
 * the temp file). tmp must hold PATH_MAX bytes. */
FILE *file_atomic_open(const char *path, char *tmp);
int file_atomic_commit(FILE *f, const char *tmp, const char *path, mode_t mode);
void file_atomic_abort(FILE *f, const char *tmp);
/* fsync the directory holding path (after a rename or unlink in it). */
void file_sync_dir(const char *path);

/* The names in dir that end in suffix, sorted (strcmp); *names is an array of
 * strings to free with file_list_free. Returns the count or -errno. */
int file_list(const char *dir, const char *suffix, char ***names);
void file_list_free(char **names, int n);

#endif
