/* main.c — entry point; everything else lives in the library so tests can link it. */
#include "cmd/commands.h"

int main(int argc, char **argv)
{
    return app_main(argc, argv);
}
