/*
 * LD_PRELOAD: socket(AF_UNIX) fails with EAFNOSUPPORT, as in a service whose
 * RestrictAddressFamilies= leaves AF_UNIX out.  Other families pass through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/socket.h>

int socket(int domain, int type, int protocol)
{
	static int (*real_socket)(int, int, int);

	if (domain == AF_UNIX) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (!real_socket)
		real_socket = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
	return real_socket(domain, type, protocol);
}
